package io.aiperf.engine.arch;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The config's binders (issue 44): each {@code config/*Binder} under {@value #MAX_CLASS_LINES} lines with no method
 * over {@value #MAX_METHOD_LINES}, and none reads a file or an environment variable, even through a helper: what
 * they need from outside comes through {@code config.ConfigInputs}, handed in by {@code ConfigLoader}.
 */
class ConfigBindersTest {
    private static final int MAX_CLASS_LINES = 400;
    private static final int MAX_METHOD_LINES = 80;
    private static final Path CONFIG = Path.of("src/main/java/io/aiperf/engine/config");
    private static final String PACKAGE = "io.aiperf.engine.config.";

    @Test
    void everyBinderIsUnder400LinesWithNoMethodOver80() throws IOException {
        final Map<String, Integer> tooLong = new TreeMap<>();
        for (final Path file : binderSources()) {
            final String source = Files.readString(file);
            final String name = file.getFileName().toString().replace(".java", "");
            final int lines = (int) source.lines().count();
            if (lines >= MAX_CLASS_LINES) {
                tooLong.put(name, lines);
            }
            MethodLengthTest.methodLengths(source).forEach((method, length) -> {
                if (length > MAX_METHOD_LINES) {
                    tooLong.put(name + "." + method, length);
                }
            });
        }
        assertThat(tooLong).as("binders of " + MAX_CLASS_LINES + " lines or more, and methods over "
                + MAX_METHOD_LINES).isEmpty();
    }

    /** The rules see the binders, so an empty directory cannot pass for small ones. */
    @Test
    void theBindersAreFound() throws IOException {
        assertThat(binderSources().stream().map(p -> p.getFileName().toString()))
                .contains("ConfigBinder.java", "PhaseBinder.java", "DatasetBinder.java", "EndpointBinder.java");
        assertThat(binderClasses()).contains(PACKAGE + "ConfigBinder", PACKAGE + "PhaseBinder");
    }

    @Test
    void noBinderReadsAFileOrTheEnvironment() {
        final Map<String, String> reads = new TreeMap<>();
        for (final JavaClass c : EngineClasses.ALL) {
            if (binderClasses().contains(outermost(c))) {
                c.getCodeUnits().forEach(m -> reads.putAll(readsReachedFrom(m)));
            }
        }
        assertThat(reads).as("file or environment reads a binder reaches (read -> the binder's method)").isEmpty();
    }

    /** The search finds a read where there is one: the real inputs read the disk and the process's environment. */
    @Test
    void theSearchFindsReadsBehindAHelper() {
        final Map<String, String> reads = new TreeMap<>();
        for (final JavaClass c : EngineClasses.ALL) {
            if (c.getName().equals(PACKAGE + "FileSystemInputs") || c.getName().equals(PACKAGE + "ConfigInputs")) {
                c.getCodeUnits().forEach(m -> reads.putAll(readsReachedFrom(m)));
            }
        }
        assertThat(reads.keySet()).anyMatch(r -> r.startsWith("java.nio.file.Files.readString"))
                .anyMatch(r -> r.startsWith("java.nio.file.Files.newBufferedReader")) // InputFiles, behind a helper
                .anyMatch(r -> r.startsWith("java.lang.System.getenv"));
    }

    private static List<Path> binderSources() throws IOException {
        try (Stream<Path> files = Files.list(CONFIG)) {
            return files.filter(f -> f.getFileName().toString().endsWith("Binder.java")).sorted().toList();
        }
    }

    private static Set<String> binderClasses() {
        try {
            return Set.copyOf(binderSources().stream()
                    .map(p -> PACKAGE + p.getFileName().toString().replace(".java", "")).toList());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String outermost(final JavaClass c) {
        final String name = c.getName();
        final int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }

    /**
     * The reads reached from {@code start}, each with the engine method that makes it. Calls are followed into the
     * engine's own methods as declared; a call on an interface ({@code ConfigInputs}) is not followed into its
     * implementations: what is handed in is the caller's to choose.
     */
    private static Map<String, String> readsReachedFrom(final JavaCodeUnit start) {
        final Map<String, String> reads = new LinkedHashMap<>();
        final Set<String> seen = new java.util.HashSet<>();
        final Deque<JavaCodeUnit> todo = new ArrayDeque<>(List.of(start));
        while (!todo.isEmpty()) {
            final JavaCodeUnit m = todo.pop();
            if (!seen.add(m.getFullName())) {
                continue;
            }
            for (final JavaAccess<?> a : m.getAccessesFromSelf()) {
                if (!(a.getTarget() instanceof AccessTarget.CodeUnitAccessTarget target)) {
                    continue;
                }
                if (isARead(target)) {
                    reads.put(target.getFullName(), m.getFullName());
                } else if (target.getOwner().getPackageName().startsWith("io.aiperf.engine")) {
                    target.resolveMember().ifPresent(todo::push);
                }
            }
        }
        return reads;
    }

    private static boolean isARead(final AccessTarget.CodeUnitAccessTarget target) {
        final String owner = target.getOwner().getName();
        final String name = target.getName();
        return owner.equals("java.nio.file.Files")
                || owner.equals("java.lang.System") && name.equals("getenv")
                || Set.of("java.io.FileInputStream", "java.io.FileReader", "java.io.RandomAccessFile")
                .contains(owner) && name.equals("<init>")
                || owner.equals("java.io.File") && Set.of("exists", "isDirectory", "isFile", "length", "listFiles",
                "list").contains(name);
    }
}
