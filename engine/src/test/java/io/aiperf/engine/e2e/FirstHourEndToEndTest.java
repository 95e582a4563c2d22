package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.export.RunDirectory;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a newcomer runs into in the first hour: a first CI build without a baseline, re-running into the same
 * directory, two runs at once, and the messages for common mistakes (their exact wording).
 */
class FirstHourEndToEndTest {
    @TempDir
    Path tmp;

    private static Runs.Result profile(final MockServer mock, final Path dir, final String... extra) {
        final List<String> args = new ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(), "--request-count", "4",
                "--isl", "8", "--osl", "2", "--artifact-dir", dir.toString()));
        args.addAll(List.of(extra));
        return Runs.aiperf(args.toArray(new String[0]));
    }

    /** gating.md's Jenkinsfile flow: build 1 has no baseline yet, build 2 compares with build 1. */
    @Test
    void aFirstBuildPassesWithoutABaselineAndTheSecondIsGated() throws Exception {
        final Path rules = tmp.resolve("gate.yaml");
        Files.writeString(rules, "rules:\n  - {metric: time_to_first_token, stat: p50, max_increase_pct: 50}\n");
        final Path baseline = tmp.resolve("baseline"); // what CI copies from the last good build: nothing yet
        try (MockServer fast = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            // a path that does not exist may be a typo that would pass every build: refused before any traffic
            final Runs.Result missing = profile(fast, tmp.resolve("build0"), "--gate", rules.toString(),
                    "--baseline", baseline.toString());
            assertThat(missing.exitCode()).isEqualTo(2);
            assertThat(missing.err()).contains("no such run directory");
            Files.createDirectories(baseline);
            final Runs.Result first = profile(fast, tmp.resolve("build1"), "--streaming", "--gate", rules.toString(),
                    "--baseline", baseline.toString(), "--profile-export-prefix", "bench");
            assertThat(first.exitCode()).as(first.all()).isZero();
            assertThat(first.out()).contains("holds no results (a first build?); relative rules are inactive")
                    .contains("Gate: PASSED");
        }
        try (MockServer slow = MockServer.start(MockServerConfig.fast().withLatency(60, 1))) {
            final Runs.Result second = profile(slow, tmp.resolve("build2"), "--streaming", "--gate", rules.toString(),
                    "--baseline", tmp.resolve("build1").toString());
            assertThat(second.exitCode()).isEqualTo(1); // build 1 wrote bench.json: the prefix is read as well
            assertThat(second.out()).contains("Gate: FAILED").contains("time_to_first_token p50 changed from");
        }
    }

    @Test
    void reRunningIntoADirectoryReplacesTheEarlierRunsOutputsOnly() throws Exception {
        final Path dir = tmp.resolve("reused");
        final Path rules = tmp.resolve("gate.yaml");
        Files.writeString(rules, "rules:\n  - {metric: request_latency, stat: avg, max: 100000}\n");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("notes.txt"), "mine");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            assertThat(profile(mock, dir, "--concurrency", "1,2", "--gate", rules.toString()).exitCode()).isZero();
            assertThat(dir.resolve("concurrency_1")).isDirectory();
            assertThat(dir.resolve("gate_junit.xml")).exists();
            assertThat(profile(mock, dir).exitCode()).isZero();
            assertThat(dir.resolve("gate_junit.xml")).doesNotExist();
            assertThat(dir.resolve("gate_result.json")).doesNotExist();
            assertThat(dir.resolve("concurrency_1")).doesNotExist();
            assertThat(dir.resolve("sweep_aggregate")).doesNotExist();
            assertThat(dir.resolve("profile_export_aiperf.json")).exists();
            assertThat(dir.resolve("notes.txt")).hasContent("mine"); // never the user's own files
        }
    }

    @Test
    void aSecondRunIntoAHeldDirectoryIsRefusedBeforeTraffic() throws Exception {
        final Path dir = tmp.resolve("held");
        try (MockServer mock = MockServer.start(MockServerConfig.fast());
             RunDirectory held = RunDirectory.claim(dir, null)) {
            final Runs.Result r = profile(mock, dir);
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("error: --artifact-dir: " + dir.toAbsolutePath()
                    + " is in use by another aiperf run (.aiperf.lock is locked); wait for it to finish or choose "
                    + "another directory");
            assertThat(mock.controlState().inferenceRequests()).isZero();
        }
    }

    @Test
    void commonMistakesGetOneLineThatSaysWhatToDo() throws Exception {
        final Runs.Result both = Runs.aiperf("profile", "--mock", "-u", "http://127.0.0.1:9", "--artifact-dir",
                tmp.resolve("a").toString());
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("error: --mock starts its own server and benchmarks it; remove -u/--url, or "
                + "remove --mock to benchmark http://127.0.0.1:9");
        final Runs.Result baselineOnly = Runs.aiperf("profile", "--mock", "--baseline", tmp.toString(),
                "--artifact-dir", tmp.resolve("b").toString());
        assertThat(baselineOnly.exitCode()).isEqualTo(2);
        assertThat(baselineOnly.err()).contains("error: --baseline is what the gate compares with: add --gate RULES, "
                + "or remove --baseline");
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withApiKey("right"))) {
            final Runs.Result unauthorized = profile(mock, tmp.resolve("c"), "--api-key", "wrong");
            assertThat(unauthorized.err()).contains("most frequent error: HTTP 401 Unauthorized (check the API key: "
                    + "--api-key or --api-key-env)");
        }
        try (MockServer slow = MockServer.start(MockServerConfig.fast().withLatency(2000, 1))) {
            final Runs.Result abandoned = Runs.aiperf("profile", "-m", "m", "-u", slow.url(), "--concurrency", "2",
                    "--benchmark-duration", "0.2", "--benchmark-grace-period", "0", "--isl", "8", "--osl", "2",
                    "--artifact-dir", tmp.resolve("d").toString());
            assertThat(abandoned.err()).containsPattern("warning: \\d+ request\\(s\\) were still in flight when the "
                    + "grace period ended and were abandoned; raise --benchmark-grace-period to wait for them");
        }
    }

    @Test
    void theMockNamesABusyPort() throws Exception {
        try (MockServer busy = MockServer.start(MockServerConfig.fast())) {
            final Runs.Result r = Runs.aiperf("mock-server", "-p", Integer.toString(busy.port()));
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).contains("error: cannot listen on 127.0.0.1:" + busy.port())
                    .contains("choose another --port, or 0 for any free port").doesNotContain("\tat ");
        }
    }

    /** Trial blocks name their sweep point, paths are absolute, and a wide interval is explained. */
    @Test
    void aggregatesAreLabelledAndWideIntervalsExplained() throws Exception {
        final Path cells = tmp.resolve("cells");
        final double[] ttft = {5, 95};
        for (int t = 1; t <= 2; t++) {
            final Path cell = cells.resolve("profile_runs/trial_000" + t + "/concurrency_1");
            Files.createDirectories(cell);
            Files.writeString(cell.resolve("profile_export_aiperf.json"), "{\"time_to_first_token\": {\"unit\": \"ms\", "
                    + "\"p50\": " + ttft[t - 1] + "}, \"input_config\": {}}");
            Files.writeString(cell.resolve("cell_outcome.json"), "{\"status\": \"completed\", \"exit_code\": 0, "
                    + "\"warnings\": [], \"error\": null, \"counts\": {\"valid\": 4, \"errors\": 0}, \"cell\": {\"index\": "
                    + (t - 1) + ", \"id\": \"trial_000" + t + "/concurrency_1\", \"path\": \"profile_runs/trial_000" + t
                    + "/concurrency_1\", \"variation\": \"concurrency_1\", \"parameters\": {\"concurrency\": 1}, "
                    + "\"trial\": " + t + ", \"num_trials\": 2, \"confidence_level\": 0.95, \"cooldown_seconds\": 0}}");
        }
        final Path merged = tmp.resolve("merged");
        final Runs.Result r = Runs.aiperf("aggregate", cells.toString(), "--output-dir", merged.toString());
        assertThat(r.exitCode()).as(r.all()).isZero();
        assertThat(r.out()).contains("Across 2 trials of concurrency_1 (95% confidence):")
                .contains("Aggregate: " + merged.toAbsolutePath().resolve("aggregate/concurrency_1"))
                .contains("Sweep aggregate: " + merged.toAbsolutePath().resolve("aggregate/sweep_aggregate"))
                .contains("note: an interval reaching below zero means the trials differ a lot for how few there are");
    }
}
