package io.aiperf.engine.arch;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * No JSON document the engine writes is read back from disk by the process that wrote it: what one
 * {@code aiperf profile} made (summaries, cell and run outcomes, aggregates, the search's and the gate's results) is
 * passed on in memory. Every method that reads a file is listed, as a reader of one of the engine's documents or of
 * another file (the user's inputs); then no method a profile can reach from {@code ProfilePlan.run}, nor one
 * {@code aiperf compare} can reach, is a document reader, except through the genuine disk sources listed in
 * {@link #DISK_SOURCES}. The other genuine disk sources
 * ({@code aiperf aggregate}, {@code aiperf gate}, {@code aiperf report DIR}, the Jenkins plugin) are not reachable
 * from a profile at all. Calls are followed through lambdas, method references and every override of an interface
 * method, so a read behind a {@code Function} or a {@code ConfigSource} is found too.
 */
class NoReadBackTest {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.aiperf.engine");

    /** The methods that read one of the engine's own documents from a file, and which. */
    private static final Map<String, String> DOCUMENT_READERS = Map.ofEntries(
            Map.entry("summary.SummaryCodec.read(Path)", "profile_export_aiperf.json"),
            Map.entry("summary.RecordCodec.forEach(Path, Consumer, IntConsumer)", "profile_export.jsonl"),
            Map.entry("export.OutcomeJsonReader.read(Path, Path)", "cell_outcome.json"),
            Map.entry("gate.RunData.addFile(Path, String)", "a cell's summary or a trial aggregate"),
            Map.entry("gate.RunData.addOutcome(Path, String)", "cell_outcome.json"),
            Map.entry("gate.SearchOutcome.read(Path)", "search_result.json"),
            Map.entry("report.ReportData.read(Path)", "gate_result.json"),
            Map.entry("report.CapacitySection$Found.read(Path)", "search_result.json"),
            Map.entry("ci.KeyMetrics.read(Path)", "any export the CI step reads"),
            Map.entry("sweep.ShardMerger.summary(Path)", "a shard's summary"),
            Map.entry("sweep.ShardMerger.pool(Path, CellOutcome, Set, MetricsAccumulator, OutputStream)",
                    "a shard's profile_export.jsonl"),
            Map.entry("export.RunDirectory.manifest(Path)", "the run directory's manifest"));

    /** The methods that read a file the engine does not write: the user's inputs, tokenizers, keys. */
    private static final Map<String, String> OTHER_FILES = Map.ofEntries(
            Map.entry("config.FormatDetector.firstRow(Path, String)", "the input file, to detect its format"),
            Map.entry("config.InputFiles.rows(String, String, BiConsumer)", "the input file"),
            Map.entry("config.YamlLoader.load(Path, Map)", "the YAML config"),
            Map.entry("config.PayloadTemplate.bodyOf(String, String)", "a payload template file"),
            Map.entry("config.PemKeys.read(Path)", "a PEM key or certificate"),
            Map.entry("config.TlsConfig.certificates(String)", "a CA bundle"),
            Map.entry("config.FileSystemInputs.readString(String)", "a system prompt given as a file"),
            Map.entry("hub.HfHub.token(Map)", "the hub's token file"),
            Map.entry("tracestats.TraceAnalysis.of(Path, int)", "a trace file"),
            Map.entry("dataset.TokenizerResolver.find(String, String, Map, List)", "the hub cache's ref"),
            Map.entry("dataset.MediaInputs.base64(Path, String, String)", "an image, audio or video file"),
            Map.entry("dataset.ChatTemplate.find(Path)", "a tokenizer's config and chat template"),
            Map.entry("dataset.HfTokenizer.vocabularySize(Path)", "a tokenizer.json"),
            Map.entry("cli.RateSeriesOption.apply(CliOverlay)", "--request-rate-series's file"),
            Map.entry("cli.ArchiveReadme.main(String[])", "the build's README, at build time"));

    /**
     * Where a profile may read from disk, because the source is a disk: the calls are followed no further. Each
     * names what it reads and why it is no read-back.
     */
    private static final Map<String, String> DISK_SOURCES = Map.ofEntries(
            Map.entry("gate.RunData.load(List)", "--baseline: an earlier build's run, written by another process"),
            Map.entry("gate.RunData.checkBaseline(Path)", "--baseline: whether the earlier build left results"),
            Map.entry("report.ReportData.baselines(Side, ExportNames)",
                    "--baseline: an earlier build's run, drawn beside the candidate held in memory"),
            Map.entry("summary.RecordCodec.forEach(Path, Consumer, IntConsumer)",
                    "profile_export.jsonl: the records go to disk as each request completes and are never held in "
                            + "memory (memory stays flat at any request count); timeslices, the gate's samples and "
                            + "the report's charts stream them back"),
            Map.entry("export.RunDirectory.manifest(Path)",
                    "the run directory's manifest: read to add to it, since a gate, an aggregate or a report run "
                            + "later in the same directory add their files to it too"));

    @Test
    void everyMethodThatReadsAFileIsListed() {
        final Set<String> readers = new TreeSet<>();
        for (final JavaClass c : ENGINE) {
            for (final JavaCodeUnit m : c.getCodeUnits()) {
                if (m.getAccessesFromSelf().stream().anyMatch(NoReadBackTest::readsAFile)) {
                    readers.add(name(m));
                }
            }
        }
        final Set<String> listed = new TreeSet<>(DOCUMENT_READERS.keySet());
        listed.addAll(OTHER_FILES.keySet());
        assertThat(readers).as("methods that read a file; list each as a document reader or another file")
                .isEqualTo(listed);
    }

    @Test
    void aProfileReadsBackNothingItWrote() {
        assertThat(readBacks("profile.ProfilePlan.run()")).as("document readers a profile reaches, with the calls "
                + "that reach them").isEmpty();
    }

    /** {@code aiperf compare} gates and draws its two runs as their cells returned them. */
    @Test
    void aComparisonReadsBackNothingItWrote() {
        assertThat(readBacks("cli.CompareCommand.call()")).as("document readers aiperf compare reaches, with the "
                + "calls that reach them").isEmpty();
    }

    private static Map<String, String> readBacks(final String start) {
        final Map<String, String> reached = reachable(start);
        final Map<String, String> readBacks = new TreeMap<>();
        reached.keySet().stream().filter(DOCUMENT_READERS::containsKey).filter(m -> !DISK_SOURCES.containsKey(m))
                .forEach(m -> readBacks.put(m, path(reached, m)));
        return readBacks;
    }

    /** The search finds a read-back where there is one: {@code aiperf report DIR} reads the run's files. */
    @Test
    void theSearchFindsAReadBack() {
        assertThat(reachable("report.ReportFiles.write(Path, ExportNames)"))
                .containsKeys("report.ReportData.read(Path)", "export.OutcomeJsonReader.read(Path, Path)");
    }

    @Test
    void theListsNameRealMethods() {
        final Set<String> all = new TreeSet<>();
        for (final JavaClass c : ENGINE) {
            c.getCodeUnits().forEach(m -> all.add(name(m)));
        }
        final Set<String> listed = new TreeSet<>(DOCUMENT_READERS.keySet());
        listed.addAll(OTHER_FILES.keySet());
        listed.addAll(DISK_SOURCES.keySet());
        listed.removeAll(all);
        assertThat(listed).as("listed methods that do not exist").isEmpty();
    }

    private static boolean readsAFile(final JavaAccess<?> access) {
        if (!(access.getTarget() instanceof AccessTarget.CodeUnitAccessTarget target)) {
            return false;
        }
        final String owner = target.getOwner().getName();
        final String name = target.getName();
        final List<String> params = target.getRawParameterTypes().stream().map(JavaClass::getName).toList();
        if (owner.startsWith("com.fasterxml.jackson.") && (name.equals("readTree") || name.equals("readValue"))
                && !params.isEmpty()) {
            return Set.of("java.io.File", "java.nio.file.Path", "java.io.InputStream", "java.io.Reader",
                    "java.net.URL").contains(params.get(0));
        }
        if (owner.equals("java.nio.file.Files")) {
            return Set.of("newBufferedReader", "readString", "readAllBytes", "readAllLines", "lines",
                    "newInputStream").contains(name);
        }
        return (owner.equals("java.io.FileInputStream") || owner.equals("java.io.FileReader"))
                && name.equals("<init>");
    }

    /** Every engine method reachable from {@code start}, each with the method that first called it. */
    private static Map<String, String> reachable(final String start) {
        final Map<String, JavaCodeUnit> byName = new HashMap<>();
        final Map<String, List<JavaCodeUnit>> overrides = new HashMap<>();
        for (final JavaClass c : ENGINE) {
            for (final JavaCodeUnit m : c.getCodeUnits()) {
                byName.put(name(m), m);
            }
        }
        assertThat(byName).containsKey(start);
        final Map<String, String> from = new LinkedHashMap<>();
        from.put(start, null);
        final Deque<JavaCodeUnit> todo = new ArrayDeque<>(List.of(byName.get(start)));
        while (!todo.isEmpty()) {
            final JavaCodeUnit m = todo.pop();
            final String caller = name(m);
            if (DISK_SOURCES.containsKey(caller)) {
                continue;
            }
            // a class's static initialiser runs when the class is first used: the lambdas it keeps are reachable
            m.getOwner().getStaticInitializer().ifPresent(init -> {
                if (!from.containsKey(name(init))) {
                    from.put(name(init), caller);
                    todo.push(init);
                }
            });
            for (final JavaAccess<?> a : m.getAccessesFromSelf()) {
                if (!(a.getTarget() instanceof AccessTarget.CodeUnitAccessTarget target)
                        || !target.getOwner().getPackageName().startsWith("io.aiperf.engine")) {
                    continue;
                }
                for (final JavaCodeUnit callee : implementations(target, overrides)) {
                    final String n = name(callee);
                    if (!from.containsKey(n)) {
                        from.put(n, caller);
                        todo.push(callee);
                    }
                }
            }
        }
        return from;
    }

    /** The method called and every override of it in the engine (an interface's implementations). */
    private static List<JavaCodeUnit> implementations(final AccessTarget.CodeUnitAccessTarget target,
                                                      final Map<String, List<JavaCodeUnit>> cache) {
        final String key = target.getFullName();
        return cache.computeIfAbsent(key, k -> {
            final List<String> params = target.getRawParameterTypes().stream().map(JavaClass::getName).toList();
            final JavaClass owner = target.getOwner();
            final java.util.ArrayList<JavaCodeUnit> out = new java.util.ArrayList<>();
            for (final JavaClass c : ENGINE) {
                if (!c.isAssignableTo(owner.getName())) {
                    continue;
                }
                for (final JavaCodeUnit m : c.getCodeUnits()) {
                    if (m.getName().equals(target.getName()) && m.getRawParameterTypes().stream()
                            .map(JavaClass::getName).toList().equals(params)) {
                        out.add(m);
                    }
                }
            }
            return out;
        });
    }

    /** The chain of calls from the start to {@code method}. */
    private static String path(final Map<String, String> from, final String method) {
        final Deque<String> chain = new ArrayDeque<>();
        for (String m = method; m != null; m = from.get(m)) {
            chain.push(m);
        }
        return String.join(" -> ", chain);
    }

    /** {@code package.Class.method(SimpleParam, ...)}, without the engine's prefix. */
    private static String name(final JavaCodeUnit m) {
        final String owner = m.getOwner().getName().substring("io.aiperf.engine.".length());
        final List<String> params = m.getRawParameterTypes().stream().map(JavaClass::getSimpleName).toList();
        return owner + "." + m.getName() + "(" + String.join(", ", params) + ")";
    }
}
