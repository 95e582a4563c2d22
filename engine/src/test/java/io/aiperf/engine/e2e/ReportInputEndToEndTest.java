package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code aiperf report} on damaged inputs: a message, never a stack trace. */
class ReportInputEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void aTruncatedRecordLineIsLeftOutWithAWarning() throws Exception {
        final Path dir = tmp.resolve("run");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            assertThat(Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "4", "--isl", "8",
                    "--osl", "2", "--artifact-dir", dir.toString()).exitCode()).isZero();
        }
        Files.writeString(dir.resolve("profile_export.jsonl"), "{\"metadata\": {\"request_start_ns\": 17",
                StandardOpenOption.APPEND); // what a killed writer leaves
        final Runs.Result r = Runs.aiperf("report", dir.toString());
        assertThat(r.exitCode()).as(r.all()).isZero();
        assertThat(r.err()).contains("line 5 is not a whole JSON record").doesNotContain("\tat ");
        assertThat(dir.resolve("report.html")).exists();
    }
}
