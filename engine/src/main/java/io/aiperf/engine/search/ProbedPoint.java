package io.aiperf.engine.search;

import java.util.List;

/**
 * One probed point of a capacity search: one or more trials (cells) at one knob value, and the decision on it.
 *
 * @param order 1-based probe number
 * @param artifactDir the point's directory, relative to the run directory (its trials are below it)
 * @param validity the worst validity result of its trials (ok, warn, invalid), or null without a summary
 * @param values each SLO's statistic, the mean over the trials, in the order of the SLOs (NaN when missing)
 * @param throughput the mean request throughput of the trials (requests/sec), or NaN
 * @param judgements each SLO judged on the pooled requests (empty when a trial failed or was invalid)
 * @param reason why it does not count as meeting the SLOs, or null when it meets them
 * @param objective the search objective's statistic (the mean over the trials, or pooled), NaN without one
 * @param convergence the point's trials against --convergence-metric ({@code TrialSeries#json}), or null
 * @param tiers the point decided on each --search-sla-tier's SLOs, in tier order (empty without tiers)
 */
public record ProbedPoint(int order, int value, Decision decision, String artifactDir, String validity,
                          List<Double> values, double throughput, List<Trial> trials, List<SloJudgement> judgements,
                          String reason, double objective,
                          com.fasterxml.jackson.databind.node.ObjectNode convergence, List<ProbedPoint> tiers) {
    public ProbedPoint(final int order, final int value, final Decision decision, final String artifactDir,
                       final String validity, final List<Double> values, final double throughput,
                       final List<Trial> trials, final List<SloJudgement> judgements, final String reason) {
        this(order, value, decision, artifactDir, validity, values, throughput, trials, judgements, reason,
                Double.NaN, null, List.of());
    }

    /** This point with its objective, convergence record and tier decisions. */
    ProbedPoint with(final double objectiveValue, final com.fasterxml.jackson.databind.node.ObjectNode converged,
                     final List<ProbedPoint> byTier) {
        return new ProbedPoint(order, value, decision, artifactDir, validity, values, throughput, trials, judgements,
                reason, objectiveValue, converged, List.copyOf(byTier));
    }

    /** This point with another decision (the tiers' overall one) and reason. */
    ProbedPoint decided(final Decision d, final String why) {
        return new ProbedPoint(order, value, d, artifactDir, validity, values, throughput, trials, judgements, why,
                objective, convergence, tiers);
    }

    /**
     * How a point counts: only MEETS is taken as within the SLOs. INCONCLUSIVE: the trial budget ran out with an
     * interval that holds the threshold.
     */
    public enum Decision {
        MEETS, MISSES, INCONCLUSIVE, INVALID, FAILED;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
