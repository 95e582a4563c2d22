package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code aiperf report} never shows a sweep still running, or one killed with SIGKILL, as a complete run. */
class UnfinishedReportEndToEndTest {
    @TempDir
    Path tmp;

    private static boolean aCellFinished(final Path run) throws Exception {
        if (!Files.isDirectory(run)) {
            return false;
        }
        try (Stream<Path> walk = Files.walk(run)) {
            return walk.anyMatch(f -> f.getFileName().toString().equals("profile_export_aiperf.json"));
        } catch (java.io.UncheckedIOException e) {
            if (e.getCause() instanceof java.nio.file.NoSuchFileException) {
                return false; // the running engine renamed a temporary file during the walk: look again next poll
            }
            throw e;
        }
    }

    @Test
    void aSweepStillWritingAndThenKilledIsReportedUnfinished() throws Exception {
        // The first point (4 output tokens) ends in moments; the second (2,000 tokens at 5 ms each) takes minutes.
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(10, 5))) {
            final Path run = tmp.resolve("sweep");
            final Process p = Runs.engineProcess(List.of("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--osl", "4,2000", "--request-count", "4", "--isl", "8", "--artifact-dir", run.toString()),
                    tmp.resolve("sweep.log")).start();
            try {
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120); // a bound, not a timing
                while (!aCellFinished(run) && p.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(aCellFinished(run)).as(Files.readString(tmp.resolve("sweep.log"))).isTrue();
                assertThat(p.isAlive()).as("the second point still runs").isTrue();

                final Runs.Result live = Runs.aiperf("report", run.toString());
                assertThat(live.exitCode()).as(live.err()).isZero();
                assertThat(live.err()).contains("warning: report: unfinished run: the run in " + run.toAbsolutePath()
                        + " is still running there").contains("not a complete run");
                assertThat(Files.readString(run.resolve("report.html"))).contains("id=\"unfinished\"")
                        .contains("<b>Unfinished</b>: unfinished run: the run in").contains("is still running there");

                p.destroyForcibly(); // SIGKILL: no shutdown hook runs, the lock file stays
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).as("killed, not finished").isEqualTo(137);
            } finally {
                p.destroyForcibly();
            }
            Files.deleteIfExists(run.resolve("report.html"));
            final Runs.Result killed = Runs.aiperf("report", run.toString());
            assertThat(killed.exitCode()).isZero();
            assertThat(killed.err()).contains("warning: report: unfinished run: the run in " + run.toAbsolutePath()
                    + " ended without finishing (killed?)").contains("run it again");
            assertThat(Files.readString(run.resolve("report.html"))).contains("id=\"unfinished\"")
                    .contains("ended without finishing (killed?)");
        }
    }

    @Test
    void aFinishedRunHasNoUnfinishedBanner() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path run = tmp.resolve("done");
            assertThat(Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "4", "--isl", "8",
                    "--osl", "4", "--artifact-dir", run.toString()).exitCode()).isZero();
            final Runs.Result r = Runs.aiperf("report", run.toString());
            assertThat(r.exitCode()).isZero();
            assertThat(r.err()).doesNotContain("unfinished");
            assertThat(Files.readString(run.resolve("report.html"))).doesNotContain("id=\"unfinished\"");
        }
    }

    /**
     * The readers of several runs: {@code report --trend} leaves a killed sweep out of the chart and says so, {@code
     * plot} flags it as {@code report} does, and {@code aggregate} refuses to merge its cells into a complete run.
     */
    @Test
    void aKilledSweepIsLeftOutOfATrendFlaggedByPlotAndNeverMerged() throws Exception {
        final Path done = tmp.resolve("done");
        final Path killed = tmp.resolve("killed");
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(10, 5))) {
            assertThat(Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "4", "--isl", "8",
                    "--osl", "4", "--label", "finished-build", "--artifact-dir", done.toString()).exitCode()).isZero();
            final Process p = Runs.engineProcess(List.of("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--osl", "4,2000", "--request-count", "4", "--isl", "8", "--label", "killed-build",
                    "--artifact-dir", killed.toString()), tmp.resolve("killed.log")).start();
            try {
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120); // a bound, not a timing
                while (!aCellFinished(killed) && p.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(aCellFinished(killed)).as(Files.readString(tmp.resolve("killed.log"))).isTrue();
                p.destroyForcibly(); // SIGKILL: no shutdown hook runs, the lock file stays
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).as("killed, not finished").isEqualTo(137);
            } finally {
                p.destroyForcibly();
            }
        }
        final String unfinished = "unfinished run: the run in " + killed.toAbsolutePath()
                + " ended without finishing (killed?)";

        final Path svg = tmp.resolve("trend.svg");
        final Runs.Result trend = Runs.aiperf("report", "--trend", "-o", svg.toString(), done.toString(),
                killed.toString());
        assertThat(trend.exitCode()).as(trend.err()).isZero();
        assertThat(trend.err()).contains("warning: report: left out of the trend: " + unfinished);
        assertThat(Files.readString(svg)).contains("finished-build").doesNotContain("killed");
        final Runs.Result onlyKilled = Runs.aiperf("report", "--trend", killed.toString());
        assertThat(onlyKilled.exitCode()).isEqualTo(2);
        assertThat(onlyKilled.err()).contains("error: report: no finished run to draw")
                .contains("left out of the trend");

        final Path page = tmp.resolve("plot.html");
        final Runs.Result plot = Runs.aiperf("plot", "-o", page.toString(), done.toString(), killed.toString());
        assertThat(plot.exitCode()).as(plot.err()).isZero();
        assertThat(plot.err()).contains("warning: plot: " + unfinished);
        assertThat(Files.readString(page)).contains("id=\"unfinished\"");

        final Path merged = tmp.resolve("merged");
        final Runs.Result aggregate = Runs.aiperf("aggregate", "--output-dir", merged.toString(), killed.toString());
        assertThat(aggregate.exitCode()).as(aggregate.err()).isEqualTo(2);
        assertThat(aggregate.err()).contains("error: aggregate:").contains(unfinished.substring(
                "unfinished run: ".length())).contains("never merged");
        assertThat(aggregate.err().lines().filter(l -> l.startsWith("error:")).count()).isEqualTo(1);
        assertThat(merged.resolve("profile_export_aiperf.json")).doesNotExist();
    }
}
