package io.aiperf.engine.search;

import java.util.List;

/**
 * One probed point of a capacity search: a whole cell at one knob value, and the decision on it.
 *
 * @param order 1-based probe number
 * @param artifactDir the cell's directory, relative to the run directory
 * @param validity the cell's validity result (ok, warn, invalid), or null without a summary
 * @param values each SLO's statistic in the cell, in the order of the SLOs (NaN when missing)
 * @param throughput the cell's request throughput (requests/sec), or NaN
 * @param reason why it does not count as meeting the SLOs, or null when it meets them
 */
public record ProbedPoint(int order, int value, Decision decision, String artifactDir, String validity,
                          List<Double> values, double throughput, String reason) {
    /** How a point counts: only MEETS is taken as within the SLOs. */
    public enum Decision {
        MEETS, MISSES, INVALID, FAILED;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
