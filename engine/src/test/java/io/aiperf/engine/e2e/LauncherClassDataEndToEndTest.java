package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.cli.Main;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/aiperf}'s class-data archive (src-docs/performance.md, warm start) never breaks a run: with a cache
 * it cannot write, and with an archive that is not one, the launcher still runs a profile to its exports, and the JVM
 * says nothing about its archive. The launcher runs from a distribution laid out in a temporary folder: the script
 * itself, and an aiperf.jar of the engine's classes that names its libraries in its manifest.
 */
class LauncherClassDataEndToEndTest {
    /** What the JVM would print about a class-data archive it could not use or write. */
    private static final java.util.regex.Pattern JVM_ON_ITS_ARCHIVE = java.util.regex.Pattern.compile(
            "(?i)shared (archive|class)|\\bcds\\b|xshare|SharedArchiveFile|classlist");

    @TempDir
    static Path dist;

    @BeforeAll
    static void distribution() throws Exception {
        Files.createDirectories(dist.resolve("bin"));
        Files.createDirectories(dist.resolve("lib"));
        final Path launcher = dist.resolve("bin/aiperf");
        Files.copy(Path.of("..", "bin", "aiperf"), launcher);
        assertThat(launcher.toFile().setExecutable(true)).isTrue();
        engineJar(dist.resolve("lib/aiperf.jar"));
    }

    @Test
    void aCacheThatCannotBeWrittenLeavesTheRunWithoutAnArchive(@TempDir final Path tmp) throws Exception {
        final Path notADirectory = Files.writeString(tmp.resolve("file"), "x");
        final Run r = profile(notADirectory.resolve("cache"), tmp.resolve("run"));
        assertThat(r.exit).as(r.output).isZero();
        assertThat(tmp.resolve("run/profile_export_aiperf.json")).isRegularFile().isNotEmptyFile();
        assertThat(r.output).doesNotContainPattern(JVM_ON_ITS_ARCHIVE);
    }

    @Test
    void theArchiveIsBuiltFromTheFirstRunsClassesAndADamagedOneIsSkipped(@TempDir final Path tmp) throws Exception {
        final Path cache = tmp.resolve("user cache"); // a space in the path (a home such as "/Users/Jane Doe")
        final Run first = profile(cache, tmp.resolve("run1"));
        assertThat(first.exit).as(first.output).isZero();
        assertThat(first.output).doesNotContainPattern(JVM_ON_ITS_ARCHIVE);
        assertThat(files(cache)).singleElement().asString().matches(".*/aiperf-[0-9]+\\.[0-9]+\\.classlist");

        final Run second = profile(cache, tmp.resolve("run2")); // builds the archive, checks it, starts from it
        assertThat(second.exit).as(second.output).isZero();
        final List<Path> kept = files(cache);
        assertThat(kept).singleElement().asString().matches(".*/aiperf-[0-9]+\\.jsa");
        assertThat(second.output).doesNotContainPattern(JVM_ON_ITS_ARCHIVE);

        for (final byte[] damage : List.of("not an archive".getBytes(StandardCharsets.UTF_8),
                java.util.Arrays.copyOf(Files.readAllBytes(kept.get(0)), 4096))) {
            assertThat(kept.get(0).toFile().setWritable(true)).isTrue();
            Files.write(kept.get(0), damage);
            final Path out = tmp.resolve("run-damaged-" + damage.length);
            final Run damaged = profile(cache, out);
            assertThat(damaged.exit).as(damaged.output).isZero();
            assertThat(out.resolve("profile_export_aiperf.json")).isRegularFile().isNotEmptyFile();
            assertThat(damaged.output).doesNotContainPattern(JVM_ON_ITS_ARCHIVE);
        }

        // A jar rebuilt within the same minute, at the same size, is another build: it gets its own class list, not
        // the old build's archive (which the JVM would refuse, silently, on every run).
        final Path jar = dist.resolve("lib/aiperf.jar");
        final long mtime = Files.getLastModifiedTime(jar).toMillis() / 1000 * 1000;
        final long otherSecond = mtime % 60_000 < 59_000 ? mtime + 1000 : mtime - 1000;
        Files.setLastModifiedTime(jar, java.nio.file.attribute.FileTime.fromMillis(otherSecond));
        try {
            final Run rebuilt = profile(cache, tmp.resolve("run-rebuilt"));
            assertThat(rebuilt.exit).as(rebuilt.output).isZero();
            assertThat(files(cache)).hasSize(2).anySatisfy(f -> assertThat(f.toString())
                    .matches(".*/aiperf-[0-9]+\\.[0-9]+\\.classlist").doesNotStartWith(kept.get(0).toString()
                            .replaceFirst("\\.jsa$", ".")));
        } finally {
            Files.setLastModifiedTime(jar, java.nio.file.attribute.FileTime.fromMillis(mtime));
        }
    }

    @Test
    void theJvmRunsTheQuickCompilerOnlyUnlessTheFullJitIsAsked() throws Exception {
        final String flags = "-XX:+PrintFlagsFinal"; // the JVM prints the value each flag ended with
        final java.util.regex.Pattern level = java.util.regex.Pattern.compile("TieredStopAtLevel\\s+=\\s+(\\d)");
        for (final var jit : List.of(List.of("", "1"), List.of("quick", "1"), List.of("full", "4"))) {
            final var env = new java.util.HashMap<>(java.util.Map.of("AIPERF_CDS", "off", "AIPERF_JAVA_OPTS", flags));
            if (!jit.get(0).isEmpty()) {
                env.put("AIPERF_JIT", jit.get(0));
            }
            final Run r = launch(env, "--version");
            assertThat(r.exit).as(r.output).isZero();
            final var m = level.matcher(r.output);
            assertThat(m.find()).as(r.output).isTrue();
            assertThat(m.group(1)).as("AIPERF_JIT=" + jit.get(0)).isEqualTo(jit.get(1));
            final var count = java.util.regex.Pattern.compile("CICompilerCount\\s+=\\s+(\\d+)").matcher(r.output);
            assertThat(count.find()).as(r.output).isTrue();
            assertThat(count.group(1).equals("1")).as("one compiler thread with AIPERF_JIT=" + jit.get(0))
                    .isEqualTo(jit.get(1).equals("1"));
            final var young = java.util.regex.Pattern.compile("\\bNewSize\\s+=\\s+(\\d+)").matcher(r.output);
            assertThat(young.find()).as(r.output).isTrue();
            assertThat(young.group(1)).as("the young generation's least size").isEqualTo(String.valueOf(128 << 20));
        }
        // The user's own JIT options take the place of the launcher's (one C1 thread beside C2 would not start).
        final Run mine = launch(java.util.Map.of("AIPERF_CDS", "off", "AIPERF_JAVA_OPTS",
                flags + " -XX:TieredStopAtLevel=4"), "--version");
        assertThat(mine.exit).as(mine.output).isZero();
        final var m = level.matcher(mine.output);
        assertThat(m.find()).as(mine.output).isTrue();
        assertThat(m.group(1)).isEqualTo("4");

        // A heap of the user's, in a variable the JVM reads after the command line: no young generation of the
        // launcher's, and nothing from the JVM on the console.
        final Run heap = launch(java.util.Map.of("AIPERF_CDS", "off", "_JAVA_OPTIONS", "-Xmx64m -XX:+UseSerialGC",
                "AIPERF_JAVA_OPTS", flags), "--version");
        assertThat(heap.exit).as(heap.output).isZero();
        assertThat(heap.output).doesNotContain("[warning]");
        final var small = java.util.regex.Pattern.compile("\\bNewSize\\s+=\\s+(\\d+)").matcher(heap.output);
        assertThat(small.find()).as(heap.output).isTrue();
        assertThat(Long.parseLong(small.group(1))).isLessThan(128L << 20);

        final Run wrong = launch(java.util.Map.of("AIPERF_CDS", "off", "AIPERF_JIT", "c2"), "--version");
        assertThat(wrong.exit).isEqualTo(2);
        assertThat(wrong.output.strip()).isEqualTo("aiperf: AIPERF_JIT must be quick or full, not 'c2'");
    }

    private record Run(int exit, String output) {
    }

    /** A short profile against the embedded mock through the launcher, with this test's JVM first on the PATH. */
    private static Run profile(final Path cache, final Path artifacts) throws Exception {
        return launch(java.util.Map.of("AIPERF_CACHE_DIR", cache.toString()), "profile", "--mock", "--request-count",
                "5", "--concurrency", "1", "--ui", "none", "--artifact-dir", artifacts.toString());
    }

    /** The launcher with these arguments and variables (none of the user's AIPERF_* ones), its output and exit. */
    private static Run launch(final java.util.Map<String, String> env, final String... args) throws Exception {
        final Path log = Files.createTempFile(dist, "launcher", ".log");
        final List<String> command = new ArrayList<>(List.of(dist.resolve("bin/aiperf").toString()));
        command.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("AIPERF_"));
        pb.environment().putAll(env);
        pb.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + java.io.File.pathSeparator
                + pb.environment().getOrDefault("PATH", "/usr/bin:/bin"));
        final Process p = pb.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) { // a bound, not a measure: a hung launcher fails instead of hanging
            p.destroyForcibly();
        }
        return new Run(p.isAlive() ? -1 : p.exitValue(), Files.readString(log));
    }

    private static List<Path> files(final Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    /** The engine's classes in one jar whose manifest names the libraries on this test's classpath. */
    private static void engineJar(final Path jar) throws Exception {
        final Path classes = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        final List<String> libraries = new ArrayList<>();
        for (final String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (entry.endsWith(".jar")) {
                libraries.add(Path.of(entry).toAbsolutePath().toUri().toString());
            }
        }
        final Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", libraries));
        try (OutputStream os = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(os, manifest);
             Stream<Path> walk = Files.walk(classes)) {
            for (final Path f : walk.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(java.io.File.separatorChar, '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }
}
