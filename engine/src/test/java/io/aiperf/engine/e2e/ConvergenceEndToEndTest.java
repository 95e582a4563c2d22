package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream's --convergence-* against the real mock: trials stop once a statistic is stable, and say so. */
class ConvergenceEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void trialsStopOnceTheStatisticIsStableAndConvergenceJsonSaysWhichRan() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(2, 1))) {
            final Path dir = tmp.resolve("stable");
            // every trial sends 6 requests: request_count's spread is 0, stable as soon as the minimum (3) ran
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "8",
                    "--osl", "2", "--request-count", "6", "--tokenizer", "builtin", "--num-profile-runs", "5",
                    "--convergence-metric", "request_count", "--convergence-mode", "cv", "--artifact-dir",
                    dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode c = Runs.json(dir.resolve("convergence.json"));
            assertThat(c.path("converged").asBoolean()).isTrue();
            assertThat(c.path("trials_run").asInt()).isEqualTo(3);
            assertThat(c.path("max_runs").asInt()).isEqualTo(5);
            assertThat(c.path("threshold").asDouble()).as("cv's own default").isEqualTo(0.05);
            assertThat(c.path("reached").asDouble()).isZero();
            assertThat(c.path("trials").size()).isEqualTo(3);
            for (final JsonNode t : c.path("trials")) {
                assertThat(t.path("value").asDouble()).isEqualTo(6.0);
                assertThat(dir.resolve(t.path("artifact_dir").asText()).resolve("profile_export_aiperf.json"))
                        .isRegularFile();
            }
            assertThat(dir.resolve("profile_runs/run_0004")).as("not run: converged").doesNotExist();
            assertThat(Runs.json(dir.resolve("aggregate/profile_export_aiperf_aggregate.json")).path("metadata")
                    .path("num_profile_runs").asInt()).isEqualTo(3);
            assertThat(r.out()).contains("Convergence: request_count avg, cv: coefficient of variation 0.0000 < 0.05 "
                    + "after 3 of at most 5 trials: converged");
        }
    }

    @Test
    void trialsThatDoNotConvergeRunToTheMostAndTheFileSettingsComeFromYaml() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(2, 1))) {
            final Path yaml = tmp.resolve("c.yaml");
            // TTFT means of two trials within a millionth of each other: never, on any machine
            Files.writeString(yaml, """
                    benchmark:
                      model: m
                      endpoint: {url: %s, streaming: true}
                    multi_run:
                      num_runs: 2
                      convergence: {metric: time_to_first_token, stat: p50, threshold: 0.000001, min_runs: 2}
                    """.formatted(mock.url()));
            final Path dir = tmp.resolve("unstable");
            final Runs.Result r = Runs.aiperf("profile", "--config", yaml.toString(), "--isl", "8", "--osl", "2",
                    "--request-count", "6", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode c = Runs.json(dir.resolve("convergence.json"));
            assertThat(c.path("mode").asText()).isEqualTo("ci_width");
            assertThat(c.path("stat").asText()).isEqualTo("p50");
            assertThat(c.path("converged").asBoolean()).isFalse();
            assertThat(c.path("trials_run").asInt()).isEqualTo(2);
            assertThat(c.path("reached").asDouble()).isGreaterThan(0.000001);
            assertThat(r.out()).contains("after 2 of at most 2 trials: not converged");
            Files.writeString(yaml, Files.readString(yaml).replace("min_runs", "min_run"));
            final Runs.Result bad = Runs.aiperf("profile", "--config", yaml.toString(), "--artifact-dir",
                    tmp.resolve("bad").toString());
            assertThat(bad.exitCode()).isEqualTo(2);
            assertThat(bad.err()).contains("multi_run.convergence.min_run").contains("min_runs");
        }
    }

    @Test
    void badConvergenceOptionsExitTwoBeforeAnyTraffic() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final String[][] cases = {
                {"--convergence-stat", "p99", "--num-profile-runs", "3"},
                {"--convergence-metric", "time_to_first_token"},
                {"--convergence-metric", "time_to_first_token", "--num-profile-runs", "3", "--convergence-mode", "ks"},
                {"--convergence-metric", "time_to_first_token", "--num-profile-runs", "3", "--convergence-threshold",
                    "1.5"},
                {"--convergence-metric", "time_to_first_token", "--num-profile-runs", "3", "--convergence-stat", "p42"},
                {"--convergence-metric", "time_to_first_token", "--num-profile-runs", "3", "--convergence-mode",
                    "distribution", "--export-level", "summary"},
                {"--convergence-metric", "time_to_first_token", "--num-profile-runs", "3", "--concurrency", "1,2"},
            };
            final String[] expected = {"--convergence-stat", "--num-profile-runs", "--convergence-mode",
                "--convergence-threshold", "--convergence-stat", "--export-level", "sweep"};
            for (int i = 0; i < cases.length; i++) {
                final java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("profile", "-m", "m",
                        "-u", mock.url(), "--request-count", "2", "--artifact-dir", tmp.resolve("bad" + i).toString()));
                args.addAll(java.util.List.of(cases[i]));
                final Runs.Result r = Runs.aiperf(args.toArray(new String[0]));
                assertThat(r.exitCode()).as(String.join(" ", cases[i]) + ": " + r.err()).isEqualTo(2);
                assertThat(r.err()).contains(expected[i]);
            }
            assertThat(mock.controlState().inferenceRequests()).isZero();
        }
    }
}
