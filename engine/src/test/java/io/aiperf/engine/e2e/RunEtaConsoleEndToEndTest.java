package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console of a run of several cells against the mock: one line a cell (its table only with -v), and a whole-run
 * ETA on the line that starts each cell after the first. The ETA's format is checked, never its value.
 */
class RunEtaConsoleEndToEndTest {
    /** 42s, 3m05s, 1h02m: the progress line's durations. */
    private static final String DURATION = "(\\d+s|\\d+m\\d\\ds|\\d+h\\d\\dm)";

    @TempDir
    Path tmp;

    @Test
    void aSweepSaysEachCellInOneLineWithTheRunsEta() {
        final Runs.Result r = Runs.aiperf("profile", "--mock", "--concurrency", "1,2,4", "--request-count", "6",
                "--isl", "8", "--osl", "4", "--artifact-dir", tmp.resolve("sweep").toString());
        assertThat(r.exitCode()).as(r.all()).isZero();
        final List<String> starts = r.all().lines().filter(l -> l.matches("cell \\d/3: .*")).toList();
        assertThat(starts).hasSize(3);
        assertThat(starts.get(0)).isEqualTo("cell 1/3: concurrency_1"); // no pace yet
        assertThat(starts.get(1)).matches("cell 2/3: concurrency_2, run ETA " + DURATION);
        assertThat(starts.get(2)).matches("cell 3/3: concurrency_4, run ETA " + DURATION);
        assertThat(r.out().lines().filter(l -> l.startsWith("cell concurrency_"))).hasSize(3);
        assertThat(r.out()).doesNotContain("Request Latency (ms)"); // each cell's table is in its own folder
    }

    /** A search's length is bounded by its probe budget, not known: its ETA says "up to". */
    @Test
    void aSixPointSearchPrintsTwoLinesAPointWithAnUpperBoundEta() {
        final Runs.Result r = Runs.aiperf("profile", "--mock", "--streaming", "--isl", "8", "--osl", "2",
                "--request-count", "6", "--warmup-request-count", "2", "--search-planner", "grid", "--search-space",
                "concurrency:1,6", "--search-max-iterations", "6", "--search-trials-max", "1", "--search-sla",
                "time_to_first_token:p50:lt:1000000", "--artifact-dir", tmp.resolve("search").toString());
        assertThat(r.exitCode()).as(r.all()).isZero();
        final List<String> perPoint = r.all().lines()
                .filter(l -> l.startsWith("search point ") || l.startsWith("cell concurrency_")).toList();
        assertThat(perPoint).hasSize(12);
        final List<String> starts = perPoint.stream().filter(l -> l.startsWith("search point ")).toList();
        assertThat(starts.get(0)).doesNotContain("ETA");
        final Pattern eta = Pattern.compile("search point \\d: concurrency \\d, run ETA up to " + DURATION);
        assertThat(starts.subList(1, starts.size())).allMatch(l -> eta.matcher(l).matches(), "an ETA up to a bound");
    }

    @Test
    void verboseShowsEachCellsTable() {
        final Runs.Result r = Runs.aiperf("profile", "--mock", "--concurrency", "1,2", "--request-count", "4",
                "--isl", "8", "--osl", "4", "-v", "--artifact-dir", tmp.resolve("verbose").toString());
        assertThat(r.exitCode()).as(r.all()).isZero();
        assertThat(r.out().split("Request Latency \\(ms\\)", -1)).hasSize(3);
    }
}
