package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Control calls have one hard deadline, and the user's cancel ends retries, waits and hanging calls at once. */
class ControlDeadlineEndToEndTest {
    private static final String TRICKLED_BODY = "HTTP/1.1 200 OK\r\nContent-Length: 60\r\n\r\n" + "x".repeat(60);
    private static final String TRICKLED_HEAD = "HTTP/1.1 200 OK\r\nX-Slow: " + "y".repeat(60) + "\r\n\r\n";

    @TempDir
    Path tmp;

    private JsonNode resetAgainst(final HostileServer server, final String name) throws Exception {
        final Path dir = tmp.resolve(name);
        final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", server.url(), "--request-count", "1",
                "--reset-kv-cache-timeout-seconds", "1", "--reset-kv-cache-max-retry-seconds", "0.5",
                "--artifact-dir", dir.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        return Runs.json(dir.resolve("cell_outcome.json")).path("hooks").get(0);
    }

    @Test
    void aTricklingAdminEndpointIsAbandonedAtItsDeadline() throws Exception {
        for (final String response : List.of(TRICKLED_BODY, TRICKLED_HEAD)) {
            try (HostileServer server = new HostileServer(response, 500)) {
                final long t0 = System.nanoTime();
                final JsonNode hook = resetAgainst(server, "trickle-" + response.length());
                assertThat(hook.path("result").asText()).isEqualTo("failed");
                assertThat(hook.path("error").asText()).contains("timeout");
                // One attempt of 1 s; a per-read timeout would have waited 30 s for all 60 trickled bytes (the
                // bound leaves a busy machine room to be late without coming near the 30 s).
                assertThat(hook.path("elapsed_ms").asLong()).isLessThan(15_000);
                assertThat((System.nanoTime() - t0) / 1e9).isLessThan(30);
            }
        }
    }

    @EnabledOnOs(OS.LINUX)
    @Test
    void ctrlCEndsARetryingResetAsCancelled() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withFaults("/reset_prefix_cache=status:503"))) {
            cancelDuring(mock.url(), () -> mock.controlState().calls("/reset_prefix_cache"), 2);
        }
    }

    @EnabledOnOs(OS.LINUX)
    @Test
    void ctrlCEndsAControlCallThatNeverAnswers() throws Exception {
        try (HostileServer server = new HostileServer("", 0)) {
            cancelDuring(server.url(), server::requests, 1);
        }
    }

    /** Starts a run whose reset cannot finish, waits until the server has seen the calls, then sends SIGINT. */
    private void cancelDuring(final String url, final IntSupplier calls, final int wanted) throws Exception {
        final Path dir = tmp.resolve("cancelled");
        final Process p = Runs.engineProcess(List.of("profile", "-m", "m", "-u", url, "--request-count", "1",
                "--reset-kv-cache-timeout-seconds", "120", "--reset-kv-cache-max-retry-seconds", "600",
                "--artifact-dir", dir.toString()), tmp.resolve("log.txt")).start();
        try {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (calls.getAsInt() < wanted && System.nanoTime() < deadline && p.isAlive()) {
                Thread.sleep(20);
            }
            assertThat(calls.getAsInt()).isGreaterThanOrEqualTo(wanted);
            final long t0 = System.nanoTime();
            new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("exited after SIGINT").isTrue();
            assertThat((System.nanoTime() - t0) / 1e9).isLessThan(10);
            assertThat(p.exitValue()).isEqualTo(130);
        } finally {
            p.destroyForcibly();
        }
        final JsonNode outcome = Runs.json(dir.resolve("cell_outcome.json"));
        assertThat(outcome.path("status").asText()).isEqualTo("cancelled");
        assertThat(outcome.path("error").asText()).contains("during reset_kv_cache");
        assertThat(Files.readString(tmp.resolve("log.txt"))).doesNotContain("Exception in thread");
    }
}
