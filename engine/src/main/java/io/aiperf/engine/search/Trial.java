package io.aiperf.engine.search;

import io.aiperf.engine.summary.CellSummary;
import java.nio.file.Path;
import java.util.List;

/**
 * One trial of a probed point: a whole cell (src-docs/capacity.md).
 *
 * @param artifactDir the cell's directory, relative to the run directory
 * @param error why the cell failed, or null when it completed with a summary
 * @param validity the cell's validity result (ok, warn, invalid), or null without a summary
 * @param values each SLO's statistic in the cell's summary, in the order of the SLOs (NaN when missing)
 * @param throughput the cell's request throughput (requests/sec), or NaN
 * @param records the cell's per-request records file (it may not exist)
 * @param warmedUp whether the cell had a warmup phase (the records then need no start-up cut)
 * @param lateness the p99 of the client's timer wake-up lateness, ms ({@code client_health.wakeup_delay_p99_ms}), or
 *                 NaN when not measured
 * @param summary the cell's summary, or null when it wrote none
 */
public record Trial(int trial, String artifactDir, String error, String validity, List<Double> values,
                    double throughput, Path records, boolean warmedUp, double lateness,
                    CellSummary summary) {
    public Trial(final int trial, final String artifactDir, final String error, final String validity,
                 final List<Double> values, final double throughput, final Path records, final boolean warmedUp,
                 final double lateness) {
        this(trial, artifactDir, error, validity, values, throughput, records, warmedUp, lateness, null);
    }

    /** The same trial with the values of {@code slas} (a tier's) from its summary. */
    Trial forSlas(final List<Sla> slas) {
        return new Trial(trial, artifactDir, error, validity, slas.stream()
                .map(s -> summary == null ? Double.NaN : s.valueIn(summary)).toList(), throughput, records, warmedUp,
                lateness, summary);
    }

    /** Whether its client was short of CPU beyond the limit: its timestamps and its offered load cannot be trusted. */
    public boolean clientLimited(final double maxLateness) {
        return lateness > maxLateness;
    }
}
