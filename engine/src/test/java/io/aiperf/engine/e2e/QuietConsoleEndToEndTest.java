package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The console says what matters once: validity per run not per cell, and nothing but results when quiet. */
class QuietConsoleEndToEndTest {
    @TempDir
    Path tmp;

    private static long count(final String text, final String what) {
        return text.lines().filter(l -> l.contains(what)).count();
    }

    @Test
    void aSweepUnderAHundredRequestsACellSaysSoOnce() {
        final Runs.Result r = Runs.aiperf("profile", "--mock", "--concurrency", "1,2,3", "--request-count", "6",
                "--osl", "4", "--artifact-dir", tmp.resolve("sweep").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(count(r.out(), "(sample_size)")).as(r.out()).isEqualTo(1);
        assertThat(r.out()).contains("Validity warn (sample_size) in 3 of 3 cells: 6 valid requests");
        assertThat(count(r.all(), "Validity ")).isLessThanOrEqualTo(3);
    }

    @Test
    void quietPrintsTheResultsAndNothingElse() {
        final Runs.Result r = Runs.aiperf("profile", "--mock", "--quiet", "--concurrency", "2", "--request-count",
                "6", "--osl", "4", "--artifact-dir", tmp.resolve("one").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).as("no progress, no warnings, no mock banner").isEmpty();
        assertThat(r.out()).contains("LLM Metrics").contains("Exports: ").doesNotContain("Validity");
        assertThat(tmp.resolve("one").resolve("profile_export_aiperf.json")).exists();
    }

    @Test
    void aQuietSweepPrintsNoCellTables() {
        final Runs.Result r = Runs.aiperf("profile", "--mock", "--log-level", "ERROR", "--ui", "none",
                "--concurrency", "1,2", "--request-count", "4", "--osl", "4",
                "--artifact-dir", tmp.resolve("quiet-sweep").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).doesNotContain("LLM Metrics").doesNotContain("Validity").contains("Sweep aggregate: ")
                .contains("Sweep: 2 points").contains("concurrency_1 ").contains("concurrency_2 ");
    }

    @Test
    void noSweepTableLeavesOutOnlyTheTable() {
        final Path dir = tmp.resolve("no-table");
        final Runs.Result r = Runs.aiperf("profile", "--mock", "--no-sweep-table", "--concurrency", "1,2",
                "--request-count", "4", "--osl", "4", "--artifact-dir", dir.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("Sweep: 2 points").contains("Sweep aggregate: ");
        assertThat(dir.resolve("sweep_aggregate").resolve("profile_export_aiperf_sweep.json")).exists();
    }
}
