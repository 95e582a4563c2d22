package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream's --auto-plot and aiperf plot: the engine's report.html (src-docs/report.md). */
class PlotEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void autoPlotWritesTheReportAndPlotRewritesIt() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("run");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "4",
                    "--tokenizer", "builtin", "--auto-plot", "--plot-required", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final Path report = dir.resolve("report.html");
            assertThat(report).exists();
            assertThat(Files.readString(report)).contains("<html").contains("<svg").contains("request_latency");
            Files.delete(report);
            final Runs.Result plot = Runs.aiperf("plot", dir.toString());
            assertThat(plot.exitCode()).as(plot.err()).isZero();
            assertThat(report).exists();
            assertThat(plot.err()).contains("Report: ");
            final Path none = tmp.resolve("none");
            final Runs.Result off = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "2",
                    "--tokenizer", "builtin", "--no-auto-plot", "--artifact-dir", none.toString());
            assertThat(off.exitCode()).as(off.err()).isZero();
            // --no-auto-plot is upstream's flag for its plots: the run's own report is written, as by any run
            assertThat(none.resolve("report.html")).exists();
        }
    }

    @Test
    void plotOfAMissingDirectoryIsAUsageError() {
        final Runs.Result r = Runs.aiperf("plot", tmp.resolve("absent").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("is not a directory");
    }
}
