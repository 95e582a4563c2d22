package io.aiperf.engine.ci;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Per-call folders and ids, tri-state booleans, the engine's Java and JVM options, and the history limits. */
class CiCallsTest {
    private static final List<String> LAUNCHER = List.of("aiperf");

    private static Map<String, String> form(final String... kv) {
        final Map<String, String> m = new HashMap<>(Map.of("model", "m", "urls", "http://h:1", "artifactDir", "out"));
        for (int i = 0; i + 1 < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void unsetBooleansNeverReachTheCommandLineSoTheConfigFileDecides() {
        final List<String> unset = InvocationPlanner.plan(ProfileSpec.fromForm(form("config", "b.yaml",
                "streaming", "", "resetKvCache", "", "serverProfiler", "")), LAUNCHER, List.of()).argv();
        assertThat(unset).noneMatch(a -> a.startsWith("--streaming") || a.startsWith("--reset-kv-cache")
                || a.startsWith("--server-profiler"));
        final List<String> set = InvocationPlanner.plan(ProfileSpec.fromForm(form("streaming", "true",
                "resetKvCache", "false", "serverProfiler", "true")), LAUNCHER, List.of()).argv();
        assertThat(set).contains("--streaming=true", "--reset-kv-cache=false", "--server-profiler=true");
        assertThatThrownBy(() -> ProfileSpec.fromForm(form("streaming", "yes"))).hasMessageStartingWith("streaming:");
    }

    @Test
    void aJavaOlderThan17IsRefusedBeforeTheEngineRuns() {
        assertThat(JavaLocator.versionProblem("openjdk version \"11.0.22\" 2024-01-16\nOpenJDK Runtime"))
                .isEqualTo("Java 11 is too old (the engine needs Java 17 or newer)");
        assertThat(JavaLocator.versionProblem("java version \"1.8.0_402\"")).contains("Java 8 is too old");
        assertThat(JavaLocator.versionProblem("openjdk version \"17.0.10\" 2024-01-16")).isNull();
        assertThat(JavaLocator.versionProblem("openjdk version \"21\" 2023-09-19")).isNull();
        assertThat(JavaLocator.versionProblem("something else")).isNull();
    }

    @Test
    void aStoredVerdictReadsBackAsTheEnumAndAnUnknownOneIsAFailure() {
        assertThat(Verdict.of("UNSTABLE")).isEqualTo(Verdict.UNSTABLE);
        assertThat(Verdict.of(null)).isEqualTo(Verdict.FAILURE);
        assertThat(Verdict.of("exploded")).isEqualTo(Verdict.FAILURE);
        assertThat(Verdict.worst(List.of("SUCCESS", "ABORTED", "UNSTABLE"))).isEqualTo(Verdict.ABORTED);
        assertThat(Verdict.worst(List.of())).isEqualTo(Verdict.SUCCESS);
    }

    @Test
    void aCellListFolderStaysShortWhateverTheCells() {
        final List<String> twenty = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            twenty.add("trial_0001/concurrency_" + i + "__isl_128");
        }
        final List<String> reversed = new ArrayList<>(twenty);
        java.util.Collections.reverse(reversed);
        final List<String> names = new ArrayList<>();
        for (final List<String> cells : List.of(twenty, reversed, twenty.subList(0, 19), List.of("x".repeat(300)),
                List.of("x".repeat(300), "y"), List.of("run_0001", "run_0002"))) {
            final String slot = CallFolders.of("llama", cells).slot();
            final String name = slot.substring("cells/".length());
            assertThat(name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).as(name).isLessThanOrEqualTo(64)
                    .isPositive();
            assertThat(name).doesNotContain("/");
            names.add(name);
        }
        assertThat(names).doesNotHaveDuplicates();
        assertThat(names.get(0)).startsWith("trial_0001~2fconcurrency_1__isl_").contains("~~20-");
        assertThat(names.get(5)).isEqualTo("run_0001+run_0002"); // short lists stay spelled out
    }

    @Test
    void everyIdAndSlotHasItsOwnFoldersAndNoneIsInsideAnother() {
        final List<CallFolders> calls = new ArrayList<>();
        for (final String id : List.of("aiperf", "llama", "llama-2", "a.b")) {
            calls.add(CallFolders.of(id, List.of()));
            calls.add(CallFolders.of(id, List.of("run_0001")));
            calls.add(CallFolders.of(id, List.of("run_0001", "run_0002")));
            calls.add(CallFolders.of(id, List.of("a/b")));
            calls.add(CallFolders.of(id, List.of("a_b")));
            calls.add(CallFolders.of(id, List.of("a+b")));
            calls.add(CallFolders.of(id, List.of("c".repeat(70))));
            calls.add(CallFolders.of(id, List.of("c".repeat(70), "d")));
            calls.add(CallFolders.aggregate(id));
        }
        for (final CallFolders a : calls) {
            assertThat(a.prefix()).startsWith(CallFolders.ROOT).endsWith("/").doesNotContain("..").doesNotContain("//");
            assertThat(CallFolders.idOf(a.prefix())).isEqualTo(a.id());
            for (final CallFolders b : calls) {
                if (a != b) {
                    assertThat(b.prefix()).as(a + " vs " + b).doesNotStartWith(a.prefix());
                    assertThat(b.exportDir("out") + "/").doesNotStartWith(a.exportDir("out") + "/");
                }
            }
        }
        assertThat(CallFolders.of("aiperf", List.of("..")).exportDir("out")).isEqualTo("out/aiperf/cells/~2e.");
        assertThat(CallFolders.of("x", null).exportDir("./")).isEqualTo("x/run");
        assertThat(CallFolders.cellsPrefix("llama")).isEqualTo("aiperf/llama/cells/");
        assertThat(CallFolders.of("llama", List.of("run_0001")).prefix()).startsWith(CallFolders.cellsPrefix("llama"));
    }

    @Test
    void idsArePlainFolderNames() {
        assertThat(CallFolders.idProblem(null)).isNull();
        assertThat(CallFolders.idProblem("llama-3_8b.v2")).isNull();
        for (final String bad : List.of("..", ".x", "a/b", "a b", "x".repeat(65), "a\\b")) {
            assertThat(CallFolders.idProblem(bad)).as(bad).contains("is not an id");
        }
        assertThat(ProfileSpec.fromForm(form("id", "a/b")).validate()).containsKey("id");
        assertThat(ProfileSpec.fromForm(form()).callId()).isEqualTo(CallFolders.DEFAULT_ID);
    }

    @Test
    void aSecondCallWithTheSameIdAndSlotIsAnErrorNamingBoth() {
        final Map<String, String> owners = new LinkedHashMap<>();
        assertThat(CallFolders.of("llama", List.of()).claim(owners, "aiperfProfile (flow node 7)")).isNull();
        assertThat(CallFolders.of("mistral", List.of()).claim(owners, "aiperfProfile (flow node 9)")).isNull();
        assertThat(CallFolders.of("llama", List.of("run_0001")).claim(owners, "aiperfProfile (flow node 11)")).isNull();
        assertThat(CallFolders.of("llama", List.of()).claim(owners, "aiperfGate (flow node 13)"))
                .contains("id 'llama'", "aiperfProfile (flow node 7)", "aiperfGate (flow node 13)", "aiperf/llama/run/");
        assertThat(owners).hasSize(3).containsEntry("aiperf/llama/run/", "aiperfProfile (flow node 7)");
    }

    @Test
    void trendMetricsAndIdsArePerId() {
        final Map<String, Map<String, Object>> calls = new LinkedHashMap<>();
        calls.put("aiperf/llama/run/", Map.of(StepSummary.METRICS, Map.of("time_to_first_token_p50", 5.0)));
        calls.put("aiperf/mistral/cells/run_0001/", Map.of(StepSummary.METRICS, Map.of("time_to_first_token_p50", 1.0)));
        calls.put("aiperf/mistral/aggregate/", Map.of(StepSummary.METRICS, Map.of("time_to_first_token_p50", 2.0)));
        assertThat(StepSummary.ids(calls)).containsExactly("llama", "mistral");
        assertThat(StepSummary.trendMetrics(calls, "llama")).containsEntry("time_to_first_token_p50", 5.0);
        assertThat(StepSummary.trendMetrics(calls, "mistral")).containsEntry("time_to_first_token_p50", 2.0);
        assertThat(StepSummary.trendMetrics(calls, "other")).isEmpty();
    }

    @Test
    void javaComesFromTheToolOrTheStepsEnvironmentAndTheErrorSaysWhatWasSearched() {
        final Map<String, String> env = Map.of("JAVA_HOME", "/opt/jdk/", "PATH", "/usr/bin:/bin");
        assertThat(JavaLocator.candidates(null, null, env, true, null)).extracting(JavaLocator.Candidate::java)
                .containsExactly("/opt/jdk/bin/java", "java");
        // the step's PATH, looked up on the agent, before the plain command a container resolves itself
        assertThat(JavaLocator.executablesOnPath(env, true)).containsExactly("/usr/bin/java", "/bin/java");
        assertThat(JavaLocator.executablesOnPath(Map.of("PATH", "C:\\jdk\\bin\\;C:\\w"), false))
                .containsExactly("C:\\jdk\\bin\\java.exe", "C:\\w\\java.exe");
        assertThat(JavaLocator.candidates(null, null, env, true, "/usr/bin/java")).extracting(JavaLocator.Candidate::java)
                .containsExactly("/opt/jdk/bin/java", "/usr/bin/java", "java");
        assertThat(JavaLocator.candidates(null, null, Map.of("JAVA_HOME", "C:\\jdk"), false, null))
                .extracting(JavaLocator.Candidate::java).containsExactly("C:\\jdk\\bin\\java.exe");
        assertThat(JavaLocator.candidates("jdk21", "/tools/jdk21", env, true, "/usr/bin/java"))
                .extracting(JavaLocator.Candidate::java).containsExactly("/tools/jdk21/bin/java");
        assertThat(JavaLocator.candidates("jdk21", null, env, true, null)).isEmpty();
        assertThat(JavaLocator.notFound("jdk21", List.of(), List.of())).contains("no JDK tool installation named 'jdk21'");
        final List<JavaLocator.Candidate> tried = JavaLocator.candidates(null, null, env, true, null);
        assertThat(JavaLocator.notFound(null, tried, List.of("exit 127", "cannot start: No such file")))
                .contains("JAVA_HOME (/opt/jdk/): exit 127", "java on the PATH (/usr/bin:/bin): cannot start")
                .contains("jdk");
        assertThat(JavaLocator.notFound(null, List.of(), List.of())).contains("both unset");
    }

    @Test
    void theJvmCommandHonoursTheClassDataCacheAndTheUsersOptionsLast() {
        final Map<String, String> env = Map.of(EngineLaunch.JAVA_OPTS, " -Xmx4g\t-Dx=1 ");
        final String archive = EngineLaunch.cdsArchive("/ws@tmp/aiperf/cds/", "hash1", "java", "openjdk 17");
        assertThat(archive).matches("/ws@tmp/aiperf/cds/aiperf-[0-9a-f]{16}\\.jsa");
        assertThat(EngineLaunch.cdsArchive("/c", "hash2", "java", "openjdk 17")).isNotEqualTo(
                EngineLaunch.cdsArchive("/c", "hash1", "java", "openjdk 17"));
        assertThat(EngineLaunch.cdsArchive("/c", "hash1", "java", "openjdk 21")).isNotEqualTo(
                EngineLaunch.cdsArchive("/c", "hash1", "java", "openjdk 17"));
        // -Xshare:auto: an archive this JVM refuses is skipped, as bin/aiperf starts from one
        assertThat(EngineLaunch.command("java", "e.jar", env, archive, "ignored")).containsExactly("java",
                "-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:cds=off,cds+dynamic=off",
                "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-Xmx4g", "-Dx=1", "-jar", "e.jar");
        // -Xmx above: the heap is the user's. Without an archive the first run lists its classes (no dynamic archive
        // recorded at exit: it would leave out picocli's classes), and the archive is built from that list after it.
        final String list = EngineLaunch.classList(archive, "b7");
        assertThat(list).isEqualTo(archive.replaceAll("\\.jsa$", ".b7.classlist"));
        assertThat(EngineLaunch.command("java", "e.jar", Map.of(), null, list)).containsExactly("java",
                "-XX:DumpLoadedClassList=" + list, "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1",
                "-XX:NewSize=128m", "-Xlog:gc+ergo=error", "-jar", "e.jar");
        final String rec = EngineLaunch.built(archive, "b7");
        assertThat(rec).isEqualTo(archive.replaceAll("\\.jsa$", ".b7.jsa"));
        assertThat(EngineLaunch.buildArchive("java", "e.jar", list, rec)).containsExactly("java", "-Xshare:dump",
                "-XX:SharedClassListFile=" + list, "-XX:SharedArchiveFile=" + rec, "-Xlog:cds=off,cds+dynamic=off",
                "-cp", "e.jar");
        assertThat(EngineLaunch.command("java", "e.jar", Map.of(), null, null))
                .containsExactly("java", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:NewSize=128m",
                        "-Xlog:gc+ergo=error", "-jar", "e.jar");
        assertThat(EngineLaunch.command("java", "e.jar", Map.of(EngineLaunch.JIT, "full"), null, null))
                .containsExactly("java", "-XX:NewSize=128m", "-Xlog:gc+ergo=error", "-jar", "e.jar");
        assertThat(EngineLaunch.command("java", "e.jar", Map.of(EngineLaunch.JIT, "quick"), null, null))
                .containsExactly("java", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:NewSize=128m",
                        "-Xlog:gc+ergo=error", "-jar", "e.jar");
        assertThatThrownBy(() -> EngineLaunch.command("java", "e.jar", Map.of(EngineLaunch.JIT, "c2"), null, null))
                .hasMessage("AIPERF_JIT must be quick or full, not 'c2'");
        assertThatThrownBy(() -> EngineLaunch.command("java", "e.jar", Map.of(EngineLaunch.JIT, " full"), null, null))
                .hasMessage("AIPERF_JIT must be quick or full, not ' full'"); // as bin/aiperf reads it
        // The user's heap options, wherever the JVM reads them: no young generation of the launcher's.
        assertThat(EngineLaunch.command("java", "e.jar", Map.of(EngineLaunch.JAVA_OPTS, "-Xmx64m -XX:+UseSerialGC",
                EngineLaunch.JIT, "full"), null, null)).containsExactly("java", "-Xmx64m", "-XX:+UseSerialGC", "-jar",
                "e.jar");
        assertThat(EngineLaunch.command("java", "e.jar", Map.of("_JAVA_OPTIONS", "-XX:TieredStopAtLevel=4 -Xmn64m"),
                null, null)).containsExactly("java", "-jar", "e.jar");
        // JIT options of the user's own: the launcher's stand aside (the JVM refuses one C1 thread beside C2).
        assertThat(EngineLaunch.command("java", "e.jar", Map.of(EngineLaunch.JAVA_OPTS, "-XX:TieredStopAtLevel=4"),
                null, null)).containsExactly("java", "-XX:NewSize=128m", "-Xlog:gc+ergo=error",
                "-XX:TieredStopAtLevel=4", "-jar", "e.jar");
        assertThat(EngineLaunch.checkArchive("java", "e.jar", rec)).containsExactly("java", "-Xshare:on",
                "-XX:SharedArchiveFile=" + rec, "-Xlog:cds=off,cds+dynamic=off", "-cp", "e.jar", "-version");
        assertThat(EngineLaunch.cdsDir(Map.of(), "/d")).isEqualTo("/d");
        assertThat(EngineLaunch.cdsDir(Map.of(EngineLaunch.CACHE_DIR, "/mine"), "/d")).isEqualTo("/mine");
        assertThat(EngineLaunch.cdsDir(Map.of(EngineLaunch.CDS, "off"), "/d")).isNull();
        assertThat(EngineLaunch.records("profile")).isTrue();
        assertThat(EngineLaunch.records("aggregate")).isFalse();
    }

    @Test
    void historyWalksAreBounded() {
        assertThat(HistoryLimits.of(null, null)).isEqualTo(new HistoryLimits(30, 50));
        assertThat(HistoryLimits.of("10", "200")).isEqualTo(new HistoryLimits(10, 200));
        assertThat(HistoryLimits.of("0", "-3")).isEqualTo(new HistoryLimits(30, 50));
        assertThat(HistoryLimits.of("many", "99999999")).isEqualTo(new HistoryLimits(30, 50));
    }

    @Test
    void theComparisonWithTheBaselineHasARowPerKeyMetricWithTheRuleOnIt() {
        final Map<String, Double> candidate = new LinkedHashMap<>();
        candidate.put("time_to_first_token_p50", 12.0);
        candidate.put("request_throughput_avg", 40.0);
        final List<Map<String, Double>> baselines = List.of(Map.of("time_to_first_token_p50", 8.0,
                "request_throughput_avg", 50.0), Map.of("time_to_first_token_p50", 12.0));
        final List<Map<String, Object>> rules = List.of(Map.of("metric", "time_to_first_token_p50", "limit", "+10% max",
                "status", "unstable"));
        final List<LinkedHashMap<String, Object>> rows = Comparison.rows(candidate, baselines, rules);
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).containsEntry(Comparison.METRIC, "time_to_first_token_p50")
                .containsEntry(Comparison.BASELINE, 10.0).containsEntry(Comparison.CANDIDATE, 12.0)
                .containsEntry(Comparison.CHANGE_PCT, 20.0).containsEntry(Comparison.RULE, "+10% max")
                .containsEntry(Comparison.STATUS, "unstable").containsEntry(Comparison.UNIT, "ms");
        assertThat(rows.get(1)).containsEntry(Comparison.BASELINE, 50.0).containsEntry(Comparison.CHANGE_PCT, -20.0)
                .containsEntry(Comparison.RULE, null);
        assertThat(Comparison.rows(candidate, List.of(), List.of()).get(0)).containsEntry(Comparison.BASELINE, null)
                .containsEntry(Comparison.CHANGE_PCT, null);
        final String svg = Comparison.svg(rows);
        assertThat(svg).startsWith("<svg").contains("class=\"baseline\"", "class=\"candidate\"", "(+20.0%)",
                "(-20.0%)").doesNotContain("<script");
        assertThat(Comparison.svg(List.of())).contains("No key metrics");
    }

    @Test
    void trendPointsLinkToTheirBuilds() {
        final String svg = TrendChart.svg(List.of(new TrendChart.Point("#1", Map.of("time_to_first_token_p50", 5.0),
                "/job/p/1/aiperf/"), new TrendChart.Point("#2", Map.of("time_to_first_token_p50", 6.0), "/job/p/2/aiperf/")));
        assertThat(svg).contains("<a class=\"build\" href=\"/job/p/1/aiperf/\" target=\"_top\"><circle",
                "href=\"/job/p/2/aiperf/\"").doesNotContain("<script");
        assertThat(TrendChart.svg(List.of(new TrendChart.Point("#1", Map.of("time_to_first_token_p50", 5.0)))))
                .doesNotContain("<a ");
    }

    @Test
    void aBuildsTrendHasOneSeriesPerSweepPointAndAnOlderSummaryIsItsOnePoint() {
        final java.util.LinkedHashMap<String, Object> sweep = new java.util.LinkedHashMap<>();
        sweep.put(StepSummary.METRICS, Map.of());
        sweep.put(StepSummary.POINT_METRICS, Map.of("concurrency_10", Map.of("time_to_first_token_p50", 9.0),
                "concurrency_2", Map.of("time_to_first_token_p50", 5.0)));
        final java.util.LinkedHashMap<String, Object> older = new java.util.LinkedHashMap<>();
        older.put(StepSummary.METRICS, Map.of("time_to_first_token_p50", 4.0));
        assertThat(StepSummary.trendPoints(Map.of("aiperf/aiperf/run/", sweep), "aiperf"))
                .containsOnlyKeys("concurrency_2", "concurrency_10");
        assertThat(StepSummary.trendPoints(Map.of("aiperf/aiperf/run/", older), "aiperf")).containsOnlyKeys("base");
        final String svg = TrendChart.svgOfBuilds(List.of(
                new TrendChart.Build("#1", StepSummary.trendPoints(Map.of("aiperf/aiperf/run/", sweep), "aiperf"), null),
                new TrendChart.Build("#2", StepSummary.trendPoints(Map.of("aiperf/aiperf/run/", sweep), "aiperf"), null)));
        // numeric order: concurrency_2's series first
        assertThat(svg.indexOf("data-series=\"concurrency_2\"")).isPositive()
                .isLessThan(svg.indexOf("data-series=\"concurrency_10\""));
        assertThat(svg).contains(">#1<", ">#2<", "class=\"y-tick\"");
    }

    @Test
    void healthIsTheShareOfTheLastBuildsThatPassed() {
        assertThat(BuildHealth.of(List.of("SUCCESS", "UNSTABLE", "SUCCESS", "FAILURE", "SUCCESS", "FAILURE")).score())
                .isEqualTo(60);
        assertThat(BuildHealth.of(List.of("SUCCESS")).description()).contains("1 of the last 1");
        assertThat(BuildHealth.of(List.of()).score()).isEqualTo(100);
    }
}
