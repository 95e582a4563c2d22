package io.aiperf.engine.search;

import io.aiperf.engine.convergence.ConvergenceSpec;
import java.util.List;

/**
 * What a capacity search looks for (src-docs/capacity.md): the highest value of its knob (concurrency, or request
 * rate in whole requests per second) in {@code [min, max]} whose cells meet every SLO.
 *
 * @param planner {@link BisectionPlanner#NAME} or {@link GridPlanner#NAME}
 * @param recipe the upstream recipe it came from, or null for explicit options
 * @param maxProbes the most points probed
 * @param maxTrials the most trials of one point, spent while the SLOs' intervals hold a threshold
 * @param confidence the confidence of a point's decision, in (0, 1)
 * @param boundaryBand how near a threshold (a share of it) a point's value must be to be judged at the confidence
 * @param maxClientLateness the most p99 lateness of the client's timer wake-ups (ms) a trial may have to count
 * @param objective what the search reports as the best point among those that meet the SLOs, or null
 * @param pooling {@link #POOLING_MEAN} (a percentile of a point is the mean of its trials') or
 *                {@link #POOLING_POOLED} (the percentile of all its trials' requests together)
 * @param tiers upstream's {@code --search-sla-tier}s: each has a capacity of its own (empty: one set of SLOs)
 * @param convergence when non-null, a point's trials go on until they converge too (budget allowing)
 * @param initialPoints upstream's Bayesian start-up points: recorded; bisection and grid need none
 * @param randomSeed upstream's search seed, or null: recorded; bisection and grid draw nothing at random
 * @param goodput the per-request SLOs every point's cells count good requests by ({@code --goodput TAG:VALUE}, set
 *                by the max-goodput-under-slo recipe), empty for none
 */
public record SearchSpec(String knob, int min, int max, List<Sla> slas, String planner, int maxProbes, String recipe,
                         int maxTrials, double confidence, double boundaryBand, double maxClientLateness,
                         Objective objective, String pooling, List<SlaTier> tiers, ConvergenceSpec convergence,
                         Integer initialPoints, Long randomSeed, List<String> goodput) {
    public static final String CONCURRENCY = "concurrency";
    /** Whole requests per second, open loop. */
    public static final String REQUEST_RATE = "request_rate";
    public static final int DEFAULT_MAX_PROBES = 8;
    public static final int DEFAULT_MAX_TRIALS = 3;
    public static final double DEFAULT_MAX_CLIENT_LATENESS_MS = 20;
    public static final double DEFAULT_BOUNDARY_BAND_PCT = 10;
    public static final String POOLING_MEAN = "mean";
    public static final String POOLING_POOLED = "pooled";

    /** A search with one set of SLOs and nothing else of upstream's. */
    public SearchSpec(final String knob, final int min, final int max, final List<Sla> slas, final String planner,
                      final int maxProbes, final String recipe, final int maxTrials, final double confidence,
                      final double boundaryBand, final double maxClientLateness) {
        this(knob, min, max, slas, planner, maxProbes, recipe, maxTrials, confidence, boundaryBand, maxClientLateness,
                null, POOLING_MEAN, List.of(), null, null, null, List.of());
    }

    /** The same search judged on {@code other} SLOs (a tier's). */
    SearchSpec withSlas(final List<Sla> other) {
        return new SearchSpec(knob, min, max, other, planner, maxProbes, recipe, maxTrials, confidence, boundaryBand,
                maxClientLateness, objective, pooling, List.of(), convergence, initialPoints, randomSeed, goodput);
    }

    /** What the search optimises among the points that meet the SLOs: upstream's --search-metric/-stat/-direction. */
    public record Objective(String metric, String stat, String direction) {
        public static final String MAXIMIZE = "maximize";
        public static final String MINIMIZE = "minimize";

        /** The statistic in a cell's summary, or NaN. */
        public double valueIn(final io.aiperf.engine.summary.CellSummary summary) {
            return summary == null ? Double.NaN : summary.stat(metric, stat);
        }

        /** Whether {@code a} is better than {@code b}; a NaN is never better. */
        public boolean better(final double a, final double b) {
            return !Double.isNaN(a) && (Double.isNaN(b) || (direction.equals(MINIMIZE) ? a < b : a > b));
        }
    }

    /** One of upstream's --search-sla-tier: a label and its SLOs (with every --search-sla besides). */
    public record SlaTier(String label, List<Sla> slas) {
    }
}
