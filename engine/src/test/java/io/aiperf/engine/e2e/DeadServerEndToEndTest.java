package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

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
        }
        assertThat(Runs.aiperf("profile", "-m", "m", "--max-error-rate", "101", "--artifact-dir",
                tmp.resolve("x").toString()).err()).contains("max_error_rate").contains("between 0 and 100");
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
