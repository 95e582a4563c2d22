package io.aiperf.engine.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering of every package, written down (src-docs/architecture.md draws it): which engine packages each may
 * use, that HttpClient stays inside the client and the control hooks, that clocks are read through {@code time},
 * and that a class over 400 lines says why.
 */
class LayeringTest {
    private static final String ROOT = "io.aiperf.engine.";
    private static final JavaClasses ENGINE = EngineClasses.ALL;

    /** The engine packages each package may use besides itself. A new package needs a line here. */
    private static final Map<String, List<String>> MAY_USE = Map.ofEntries(
            Map.entry("time", List.of()),
            Map.entry("math", List.of()),
            Map.entry("summary", List.of()),
            Map.entry("config", List.of()),
            Map.entry("record", List.of("ci")), // a cell status carries its exit code (ci.ExitCode)
            Map.entry("ci", List.of("summary")),
            Map.entry("redact", List.of("config")),
            Map.entry("validity", List.of("summary")),
            Map.entry("dataset", List.of("config")),
            Map.entry("mock", List.of("dataset")),
            Map.entry("metrics", List.of("dataset", "record", "summary")),
            Map.entry("importer", List.of("metrics")),
            Map.entry("tracestats", List.of("config", "metrics")),
            Map.entry("convergence", List.of("gate", "math", "summary")),
            Map.entry("client", List.of("config", "dataset", "record", "redact", "time")),
            Map.entry("hooks", List.of("client", "config", "record", "time")),
            Map.entry("hub", List.of("client", "config", "dataset", "redact")),
            Map.entry("export", List.of("config", "metrics", "record", "summary", "time", "validity")),
            Map.entry("log", List.of("export", "redact", "summary")),
            Map.entry("telemetry", List.of("client", "config", "export", "log", "summary")),
            Map.entry("gate", List.of("ci", "config", "export", "importer", "math", "metrics", "record", "summary",
                    "validity")),
            Map.entry("report", List.of("ci", "export", "gate", "math", "record", "summary")),
            Map.entry("run", List.of("ci", "client", "config", "dataset", "export", "hooks", "hub", "log", "metrics",
                    "record", "redact", "summary", "telemetry", "time", "validity")),
            Map.entry("search", List.of("ci", "config", "convergence", "export", "gate", "log", "math", "metrics",
                    "record", "report", "run", "summary", "time", "validity")),
            Map.entry("sweep", List.of("ci", "config", "convergence", "export", "log", "math", "metrics", "record",
                    "report", "run", "summary", "time", "validity")),
            Map.entry("profile", List.of("ci", "client", "config", "convergence", "dataset", "export", "gate",
                    "hooks", "hub", "log", "mock", "record", "redact", "report", "run", "search", "summary", "sweep",
                    "telemetry", "time")),
            Map.entry("cli", List.of("ci", "client", "config", "convergence", "dataset", "export", "gate", "hooks",
                    "hub", "log", "mock", "profile", "record", "redact", "report", "run", "search", "summary", "sweep",
                    "telemetry", "time", "tracestats")));

    /**
     * Classes that read the JVM's clocks or sleep directly, and why: each measures or waits on real time by
     * definition, or runs where no cell (and so no injected clock) exists.
     */
    private static final Map<String, String> REAL_TIME = Map.ofEntries(
            Map.entry("mock.MockServer", "the mock stands in for a server: its own clock, never the engine's"),
            Map.entry("mock.MiniHttpServer", "the mock's event loop: Date headers and scripted delays in real time"),
            Map.entry("client.ProbeClient", "socket deadlines of probes that run outside any cell (readiness, "
                    + "hooks)"),
            Map.entry("profile.ModelReadiness", "--wait-for-model runs before any cell, so before any cell clock"),
            Map.entry("run.WakeupSampler", "measures how late the OS wakes the client: only the real clock shows it"),
            Map.entry("run.ClockOffset", "compares this host's wall clock with the server's Date header"),
            Map.entry("run.CellSetup", "a seed from nanoTime when no --random-seed is given"),
            Map.entry("run.CellExecution", "--start-at waits for a wall-clock instant the shards share"),
            Map.entry("run.ProgressReporter", "console progress lines every few seconds of real time"),
            Map.entry("sweep.MultiRunner", "the cooldown between trials is real time the server gets to settle"),
            Map.entry("dataset.TokenizerWatchdog", "a real-time bound on the tokenizer, to stop a backtracking regex"),
            Map.entry("telemetry.ServerMetricsCollector", "the scrape window of the server's own metrics, which "
                    + "the server stamps in real time"),
            Map.entry("telemetry.GpuTelemetry", "epoch timestamps in the GPU export, as upstream's carry"));

    @Test
    void everyPackageHasItsLayer() {
        final Set<String> packages = new TreeSet<>();
        ENGINE.forEach(c -> packages.add(engineSegment(c.getPackageName())));
        assertThat(MAY_USE.keySet()).containsExactlyInAnyOrderElementsOf(packages);
    }

    @Test
    void eachPackageUsesOnlyTheEnginePackagesOfItsLayer() {
        MAY_USE.forEach((pkg, allowed) -> {
            final List<String> others = new ArrayList<>();
            MAY_USE.keySet().stream().filter(p -> !p.equals(pkg) && !allowed.contains(p))
                    .forEach(p -> others.add(ROOT + p + ".."));
            if (!others.isEmpty()) {
                noClasses().that().resideInAPackage(ROOT + pkg + "..")
                        .should().dependOnClassesThat().resideInAnyPackage(others.toArray(String[]::new))
                        .because(pkg + " may use only " + allowed).check(ENGINE);
            }
        });
    }

    /** HttpClient is the client's (and the control hooks') implementation, not the rest of the engine's vocabulary. */
    @Test
    void onlyTheClientAndTheHooksUseHttpClient() {
        noClasses().that().resideOutsideOfPackages(ROOT + "client..", ROOT + "hooks..")
                .should().dependOnClassesThat().resideInAPackage("org.apache.hc..").check(ENGINE);
    }

    /** The engine reads time through {@code time.Clock} and waits through {@code time.Sleeper}, so tests drive it. */
    @Test
    void clocksAreReadThroughTheTimePackage() {
        noClasses().that().resideOutsideOfPackage(ROOT + "time..")
                .and(DescribedPredicate.describe("not listed in REAL_TIME",
                        (JavaClass c) -> !REAL_TIME.containsKey(topLevel(c).getName().substring(ROOT.length()))))
                .should().accessTargetWhere(DescribedPredicate.describe("System.nanoTime, "
                        + "System.currentTimeMillis or Thread.sleep", (JavaAccess<?> a) -> readsTheClock(a.getTarget())))
                .check(ENGINE);
    }

    /** Every exception to the clock rule still reads the clock: a stale entry is removed, not kept. */
    @Test
    void everyRealTimeExceptionIsStillNeeded() {
        for (final String name : REAL_TIME.keySet()) {
            final boolean reads = ENGINE.stream().filter(c -> topLevel(c).getName().equals(ROOT + name))
                    .anyMatch(c -> c.getAccessesFromSelf().stream().anyMatch(a -> readsTheClock(a.getTarget())));
            assertThat(reads).as(name).isTrue();
        }
    }

    /** A class over 400 lines says why in its Javadoc ("over 400 lines because ..."), so its size is a decision. */
    @Test
    void aClassOver400LinesSaysWhy() throws IOException {
        final Path main = Path.of("src/main/java");
        // The Javadoc right above the top-level type (declared at the start of a line, annotations between, which
        // may span lines, as picocli's @Command does).
        final Pattern javadocThenType = Pattern.compile("/\\*\\*((?:(?!\\*/).)*)\\*/\\s*(?:@(?:(?!/\\*\\*).)*?\\n)*?"
                + "^(?:public\\s+)?(?:final\\s+|abstract\\s+|sealed\\s+)*(?:class|record|interface|enum)\\s",
                Pattern.DOTALL | Pattern.MULTILINE);
        final Map<String, Long> silent = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(main)) {
            for (final Path f : walk.filter(p -> p.toString().endsWith(".java")).toList()) {
                final List<String> lines = Files.readAllLines(f);
                if (lines.size() <= 400) {
                    continue;
                }
                final Matcher m = javadocThenType.matcher(String.join("\n", lines));
                if (!m.find() || !m.group(1).replaceAll("\\s*\\*\\s*", " ").contains("over 400 lines because")) {
                    silent.put(main.relativize(f).toString(), (long) lines.size());
                }
            }
        }
        assertThat(silent).as("classes over 400 lines whose Javadoc does not say why").isEmpty();
    }

    private static boolean readsTheClock(final AccessTarget t) {
        final String owner = t.getOwner().getName();
        final String name = t.getName();
        return owner.equals("java.lang.System") && (name.equals("nanoTime") || name.equals("currentTimeMillis"))
                || owner.equals("java.lang.Thread") && name.equals("sleep");
    }

    private static JavaClass topLevel(final JavaClass c) {
        JavaClass out = c;
        while (out.getEnclosingClass().isPresent()) {
            out = out.getEnclosingClass().get();
        }
        return out;
    }

    private static String engineSegment(final String pkg) {
        final String rest = pkg.substring(ROOT.length());
        final int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }
}
