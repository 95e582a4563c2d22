package io.aiperf.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.export.OutcomeJsonReader;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.redact.Redactor;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.summary.SummaryCodec;
import io.aiperf.engine.time.CancellationToken;
import io.aiperf.engine.time.Clock;
import io.aiperf.engine.time.Sleeper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One cell run directly: what {@link CellRunner#run} returns is what its files hold. */
class CellRunnerTest {
    @TempDir
    Path tmp;

    @Test
    void aCompletedCellReturnsTheSummaryItsExportHolds() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final CellResult result = run(mock.url(), tmp.resolve("ok"));
            assertThat(result.status()).isEqualTo(CellStatus.COMPLETED);
            assertThat(result.outcome().exitCode()).isEqualTo(ExitCode.OK);
            assertThat(result.outcome().valid()).isEqualTo(6);
            assertThat(result.summary()).isEqualTo(SummaryCodec.read(tmp.resolve("ok").resolve(
                    ExportFiles.SUMMARY_JSON)));
            assertThat(result.summary().stat("request_count", "avg")).isEqualTo(6.0);
            assertThat(readOutcome(tmp.resolve("ok"))).isEqualTo(result.outcome());
        }
    }

    @Test
    void aCellOfADeadServerFailsWithItsSummary() throws Exception {
        final CellResult result = run("http://127.0.0.1:9", tmp.resolve("dead")); // nothing listens on port 9
        assertThat(result.status()).isEqualTo(CellStatus.FAILED);
        assertThat(result.outcome().exitCode()).isEqualTo(ExitCode.FAILED);
        assertThat(result.outcome().error()).startsWith("no valid request: all 6 failed");
        assertThat(result.summary()).isEqualTo(SummaryCodec.read(tmp.resolve("dead").resolve(
                ExportFiles.SUMMARY_JSON)));
        assertThat(result.summary().errors()).isNotEmpty();
    }

    private static CellResult run(final String url, final Path dir) throws InterruptedException {
        final BenchmarkConfig config = ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  endpoint: {url: "%s"}
                  dataset: {isl: 8, osl: 2, entries: 4}
                  phases: [{name: profiling, concurrency: 2, requests: 6}]
                """.formatted(url), new CliOverlay());
        final PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        final CancellationToken cancellation = new CancellationToken();
        final CellContext ctx = new CellContext(sink, sink, false, Clock.SYSTEM, Sleeper.SYSTEM,
                (u, timeout) -> {
                    throw new IOException("no control hooks in this test");
                }, cancellation, "aiperf profile", Redactor.of(List.of()), new RunLog(sink, RunLog.Level.WARNING));
        return new CellRunner(config, dir, ctx, CellIdentity.single()).run();
    }

    private static CellOutcome readOutcome(final Path dir) throws IOException {
        return OutcomeJsonReader.read(dir.resolve(ExportFiles.CELL_OUTCOME), dir);
    }
}
