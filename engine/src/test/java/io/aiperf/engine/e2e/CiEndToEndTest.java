package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.ci.ArchivePlanner;
import io.aiperf.engine.ci.Classification;
import io.aiperf.engine.ci.EngineInvocation;
import io.aiperf.engine.ci.InvocationPlanner;
import io.aiperf.engine.ci.OutcomeClassifier;
import io.aiperf.engine.ci.ProfileSpec;
import io.aiperf.engine.ci.StepSummary;
import io.aiperf.engine.ci.Verdict;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A CI step's spec, planned, run through the real CLI against the mock, then classified and archived. */
class CiEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void profilerStopFailureIsAWarningAndTheExportsAreArchived() throws Exception {
        final MockServerConfig cfg = MockServerConfig.fast().withFaults("/stop_profile=status:500");
        try (MockServer mock = MockServer.start(cfg)) {
            final ProfileSpec spec = new ProfileSpec(null, null, "m", List.of(mock.url()), "chat", true, "2", null, "6", null,
                    null, null, true, true, null, "ci-run", true, null, null, false, List.of("--isl", "8", "--osl", "2"),
                    List.of(), null, null);
            final EngineInvocation inv = InvocationPlanner.plan(spec, Runs.engineLauncher(), List.of());
            // As the Jenkins step does: the workspace is the working directory, the export dir is relative to it.
            final Process p = new ProcessBuilder(inv.argv()).directory(tmp.toFile()).redirectErrorStream(true)
                    .redirectOutput(tmp.resolve("log.txt").toFile()).start();
            assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            final Path dir = tmp.resolve(inv.exportDir());
            final Classification c = OutcomeClassifier.classify(p.exitValue(), dir, false);
            assertThat(c.verdict()).isEqualTo(Verdict.SUCCESS);
            assertThat(c.warnings()).singleElement().asString().startsWith("server_profiler stop failed for 1 origin(s)");
            final List<String> files = ArchivePlanner.plan(dir, List.of(), List.of());
            assertThat(files).contains("cell_outcome.json", "profile_export.jsonl", "profile_export_aiperf.json",
                    "profile_export_aiperf.csv", "inputs.json");
            final Map<String, String> archive = ArchivePlanner.artifacts(inv.exportDir(), files, spec.folders().prefix());
            assertThat(archive).containsEntry("aiperf/aiperf/run/cell_outcome.json", "ci-run/aiperf/run/cell_outcome.json");

            final Map<String, Object> summary = StepSummary.of(p.exitValue(), dir, false, List.copyOf(archive.keySet()));
            assertThat(summary).containsEntry(StepSummary.VERDICT, "SUCCESS").containsEntry(StepSummary.GATE, "none");
            assertThat(StepSummary.metrics(summary)).containsKeys("time_to_first_token_p50", "time_to_first_token_p99",
                    "inter_token_latency_avg", "request_throughput_avg", "output_token_throughput_avg")
                    .containsEntry("error_rate", 0.0);
            assertThat((List<?>) summary.get(StepSummary.HOOKS)).hasSize(3);
            final List<?> cells = (List<?>) summary.get(StepSummary.CELLS);
            assertThat(cells).hasSize(1);
            final Map<?, ?> cell = (Map<?, ?>) cells.get(0);
            assertThat(cell.get("id")).isEqualTo("default");
            assertThat(cell.get("status")).isEqualTo("completed");
            assertThat(cell.get("requests")).isEqualTo(6L);
            assertPlainJdkValues(summary);
        }
    }

    /** The step's compare mode: the candidate (B) gated against production (A) in one job, as the engine runs it. */
    @Test
    void compareWithGatesTheCandidateAgainstTheOtherBuild() throws Exception {
        final java.nio.file.Path rules = java.nio.file.Files.writeString(tmp.resolve("gate.yaml"), """
                rules:
                  - {metric: request_latency, stat: p50, max_increase_pct: 400}
                """);
        try (MockServer production = MockServer.start(MockServerConfig.fast().withLatency(5, 1));
             MockServer candidate = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            final ProfileSpec spec = new ProfileSpec(null, null, "m", List.of(candidate.url()), "chat", true, "2", null, "6",
                    null, null, null, true, null, null, "ab", true, rules.toString(), null, false,
                    List.of("--isl", "8", "--osl", "2", "--pairs", "1", "--tokenizer", "builtin"), List.of(),
                    production.url(), null);
            final EngineInvocation inv = InvocationPlanner.plan(spec, Runs.engineLauncher(), List.of());
            final Process p = new ProcessBuilder(inv.argv()).directory(tmp.toFile()).redirectErrorStream(true)
                    .redirectOutput(tmp.resolve("ab.txt").toFile()).start();
            assertThat(p.waitFor(90, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            final Map<String, Object> summary = StepSummary.of(p.exitValue(), tmp.resolve(inv.exportDir()), false, List.of());
            if (p.exitValue() == io.aiperf.engine.ci.ExitCode.GATE_INCONCLUSIVE
                    && Runs.clientStarved(tmp.resolve(inv.exportDir()))) {
                // A client short of CPU (a very busy host) makes the gate refuse a verdict, as it should.
                assertThat(summary).containsEntry(StepSummary.GATE, "inconclusive");
                return;
            }
            assertThat(p.exitValue()).as(java.nio.file.Files.readString(tmp.resolve("ab.txt"))).isZero();
            assertThat(summary).containsEntry(StepSummary.VERDICT, "SUCCESS").containsEntry(StepSummary.GATE, "passed");
            assertThat(production.controlState().resetCount()).isEqualTo(1);
            assertThat(candidate.controlState().resetCount()).isEqualTo(1);
        }
    }

    /** What crosses a remoting channel and a Pipeline sandbox: JDK values only. */
    private static void assertPlainJdkValues(final Object value) {
        if (value instanceof Map<?, ?> m) {
            assertThat(value).isInstanceOf(java.util.LinkedHashMap.class);
            m.forEach((k, v) -> {
                assertThat(k).isInstanceOf(String.class);
                assertPlainJdkValues(v);
            });
        } else if (value instanceof List<?> l) {
            assertThat(value).isInstanceOf(java.util.ArrayList.class);
            l.forEach(CiEndToEndTest::assertPlainJdkValues);
        } else if (value != null) {
            assertThat(value).isInstanceOfAny(String.class, Integer.class, Long.class, Double.class, Boolean.class);
        }
    }

    @Test
    void apiKeyFromTheEnvironmentStaysOffTheCommandLine() throws Exception {
        final String key = "sk-env-SECRET-77";
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withApiKey(key))) {
            final Path dir = tmp.resolve("env-key");
            final ProcessBuilder pb = Runs.engineProcess(List.of("profile", "-m", "m", "-u", mock.url(),
                    "--request-count", "3", "--isl", "8", "--osl", "2", "--api-key-env", "AIPERF_TEST_KEY",
                    "--reset-kv-cache", "--artifact-dir", dir.toString()), tmp.resolve("env-log.txt"));
            pb.environment().put("AIPERF_TEST_KEY", key);
            final Process p = pb.start();
            assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isZero();
            assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).path("request_count").path("avg").asInt())
                    .isEqualTo(3);
            assertThat(mock.controlState().authorizedAdminCalls()).isEqualTo(1);
            assertThat(Runs.allText(dir)).doesNotContain(key).contains("--api-key-env AIPERF_TEST_KEY");
            assertThat(java.nio.file.Files.readString(tmp.resolve("env-log.txt"))).doesNotContain(key);
        }
        final Runs.Result unset = Runs.aiperf("profile", "-m", "m", "--api-key-env", "AIPERF_SURELY_UNSET_VAR_42",
                "--artifact-dir", tmp.resolve("none").toString());
        assertThat(unset.exitCode()).isEqualTo(2);
        assertThat(unset.err()).contains("--api-key-env: environment variable AIPERF_SURELY_UNSET_VAR_42 is not set");
    }
}
