package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CI can never go green on a dead server: no valid request fails the cell, and the gate on it fails. */
class DeadServerEndToEndTest {
    @TempDir
    Path tmp;

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void aRunAgainstAClosedPortFailsAndItsGateFails() throws Exception {
        final Path dir = tmp.resolve("dead");
        final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:" + closedPort(),
                "--request-count", "4", "--isl", "8", "--osl", "2", "--artifact-dir", dir.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("error: no valid request: all 4 failed");
        assertThat(Runs.json(dir.resolve("cell_outcome.json")).path("status").asText()).isEqualTo("failed");
        assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).path("error_summary").size()).isPositive();

        final Path rules = tmp.resolve("rules.yaml");
        Files.writeString(rules, "rules:\n  - {metric: time_to_first_token, stat: p99, max: 1000}\n"
                + "  - {metric: request_throughput, stat: avg, max_decrease_pct: 10}\n");
        final Runs.Result gate = Runs.aiperf("gate", "--rules", rules.toString(), "--candidate", dir.toString());
        assertThat(gate.exitCode()).isEqualTo(1);
        assertThat(gate.out()).contains("[failed]").doesNotContain("[inactive]").doesNotContain("[passed]");
    }

    @Test
    void anErrorShareAboveTheLimitFailsTheCell() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withErrorRate(50))) {
            final Path dir = tmp.resolve("errors");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "40",
                    "--isl", "8", "--osl", "2", "--max-error-rate", "5", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).containsPattern("error rate \\d+\\.\\d% \\(\\d+ of 40 requests\\) is above --max-error-rate 5%");
            // The default tolerates errors as long as some requests are valid (AIPerf's behaviour).
            assertThat(Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "40", "--isl", "8",
                    "--osl", "2", "--artifact-dir", tmp.resolve("tolerated").toString()).exitCode()).isZero();
            // ... and its error-adjusted latency, upstream 0.13's adj_request_latency block, counts the failed half
            // as infinitely slow: no p75, no max, no avg, and every request counted.
            final JsonNode summary = Runs.json(tmp.resolve("tolerated").resolve("profile_export_aiperf.json"));
            final JsonNode latency = summary.path("request_latency");
            final JsonNode adjusted = summary.path("adj_request_latency");
            assertThat(adjusted.path("unit").asText()).isEqualTo("ms");
            assertThat(adjusted.path("p25").asDouble()).isGreaterThanOrEqualTo(latency.path("min").asDouble());
            assertThat(adjusted.has("p75")).isFalse();
            assertThat(adjusted.has("max")).isFalse();
            assertThat(adjusted.has("avg")).isFalse();
            assertThat(adjusted.path("count").asInt()).isEqualTo(40);
            assertThat(latency.has("max")).isTrue();
            assertThat(latency.has("adj_p25")).as("no adj_* inside the block").isFalse();
            assertThat(Files.readString(tmp.resolve("tolerated").resolve("profile_export_aiperf.csv")))
                    .contains("\r\nRequest Latency (error-adjusted) (ms),,");
        }
        assertThat(Runs.aiperf("profile", "-m", "m", "--max-error-rate", "101", "--artifact-dir",
                tmp.resolve("x").toString()).err()).contains("max_error_rate").contains("between 0 and 100");
    }

    @Test
    void theFailedRequestThresholdStopsTheRunEarlyWithPartialResults() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withErrorRate(100))) {
            final Path dir = tmp.resolve("threshold");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "2000",
                    "--concurrency", "2", "--isl", "8", "--osl", "2", "--failed-request-threshold", "0.5",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
            assertThat(r.err()).containsPattern("aborted by --failed-request-threshold 0\\.5: \\d+ of \\d+ completed "
                    + "requests failed \\(100\\.0%\\); most frequent error: HTTP 500");
            // Armed after max(concurrency, 10) completions; then sending stops at once.
            assertThat(mock.controlState().inferenceRequests()).isBetween(10L, 100L);
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("was_cancelled").asBoolean()).isTrue();
            assertThat(s.path("error_request_count").path("avg").asInt()).isGreaterThanOrEqualTo(10);
        }
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Runs.Result ok = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "30",
                    "--isl", "8", "--osl", "2", "--failed-request-threshold", "0", "--artifact-dir",
                    tmp.resolve("healthy").toString());
            assertThat(ok.exitCode()).as(ok.err()).isZero();
            assertThat(mock.controlState().inferenceRequests()).isEqualTo(30);
        }
        assertThat(Runs.aiperf("profile", "-m", "m", "--failed-request-threshold", "1.5", "--artifact-dir",
                tmp.resolve("y").toString()).err()).contains("failed_request_threshold").contains("between 0 and 1");
    }

    @Test
    void anUnwritableArtifactDirectoryIsAUsageErrorBeforeAnyTraffic() throws Exception {
        final Path file = tmp.resolve("a-file");
        Files.writeString(file, "not a directory");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "2",
                    "--artifact-dir", file.resolve("sub").toString());
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("--artifact-dir").contains("cannot write to");
            assertThat(mock.controlState().inferenceRequests()).isZero();
        }
    }
}
