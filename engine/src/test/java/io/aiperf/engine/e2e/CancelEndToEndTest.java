package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C on a real engine process: stop sending, finish in-flight requests, write partial results, exit 130 (143 for SIGTERM), as the outcome files say. */
@EnabledOnOs(OS.LINUX)
class CancelEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void sigintWritesPartialResultsFlaggedCancelled() throws Exception {
        cancelWith("INT");
    }

    /** What a CI system sends to stop a job (Jenkins' abort, {@code timeout}); the pid comes from --pid-file. */
    @Test
    void sigtermIsAGracefulCancelToo() throws Exception {
        cancelWith("TERM");
    }

    private void cancelWith(final String signal) throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(50, 10))) {
            final Path dir = tmp.resolve("cancelled");
            final Path pidFile = tmp.resolve("aiperf.pid");
            final Process p = Runs.engineProcess(List.of("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--concurrency", "4", "--request-count", "1000", "--isl", "16", "--osl", "100",
                    "--pid-file", pidFile.toString(), "--artifact-dir", dir.toString()), tmp.resolve("log.txt")).start();
            try {
                // a bound, not a timing: a child JVM on a host at load 20 takes tens of seconds to send its first
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (mock.controlState().inferenceRequests() < 8 && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(mock.controlState().inferenceRequests()).isGreaterThanOrEqualTo(8);
                assertThat(Files.readString(pidFile)).isEqualTo(Long.toString(p.pid()));
                new ProcessBuilder("kill", "-" + signal, Files.readString(pidFile)).start().waitFor();
                assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("exited after SIG" + signal).isTrue(); // a bound, as above
                assertThat(p.exitValue()).isEqualTo(signal.equals("TERM") ? 143 : 130);
                assertThat(pidFile).doesNotExist();
            } finally {
                p.destroyForcibly();
            }
            final JsonNode summary = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(summary.path("was_cancelled").asBoolean()).isTrue();
            final int count = summary.path("request_count").path("avg").asInt();
            assertThat(count).isBetween(8, 999);
            assertThat(Files.readAllLines(dir.resolve("profile_export.jsonl"))).hasSize(count);
            final int code = signal.equals("TERM") ? 143 : 130; // the outcome files say what the process exited with
            final JsonNode cell = Runs.json(dir.resolve("cell_outcome.json"));
            assertThat(cell.path("status").asText()).isEqualTo("cancelled");
            assertThat(cell.path("exit_code").asInt()).isEqualTo(code);
            final JsonNode run = Runs.json(dir.resolve("run_outcome.json"));
            assertThat(run.path("status").asText()).isEqualTo("cancelled");
            assertThat(run.path("exit_code").asInt()).isEqualTo(code);
            assertThat(run.path("cells").get(0).path("exit_code").asInt()).isEqualTo(code);
            assertThat(Files.readString(tmp.resolve("log.txt"))).contains("cancelled early");
        }
    }
}
