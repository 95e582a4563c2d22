package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.ci.ArchivePlanner;
import io.aiperf.engine.ci.Classification;
import io.aiperf.engine.ci.EngineInvocation;
import io.aiperf.engine.ci.InvocationPlanner;
import io.aiperf.engine.ci.OutcomeClassifier;
import io.aiperf.engine.ci.ProfileSpec;
import io.aiperf.engine.ci.Verdict;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import java.util.List;
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
            final Path dir = tmp.resolve("ci-run");
            final ProfileSpec spec = new ProfileSpec(null, "m", List.of(mock.url()), "chat", true, "2", null, "6", null,
                    null, null, true, true, null, dir.toString(), null, List.of(), List.of("--isl", "8", "--osl", "2"));
            final EngineInvocation inv = InvocationPlanner.plan(spec, List.of("aiperf"));
            final List<String> args = inv.argv().subList(1, inv.argv().size());
            final Runs.Result r = Runs.aiperf(args.toArray(new String[0]));
            final Classification c = OutcomeClassifier.classify(r.exitCode(), Path.of(inv.exportDir()), false);
            assertThat(c.verdict()).isEqualTo(Verdict.SUCCESS);
            assertThat(c.warnings()).singleElement().asString().startsWith("server_profiler stop failed for 1 origin(s)");
            assertThat(ArchivePlanner.plan(dir, List.of(), List.of())).contains("cell_outcome.json",
                    "profile_export.jsonl", "profile_export_aiperf.json", "profile_export_aiperf.csv", "inputs.json");
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
