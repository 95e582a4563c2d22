package io.aiperf.engine.search;

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
 */
public record SearchSpec(String knob, int min, int max, List<Sla> slas, String planner, int maxProbes, String recipe,
                         int maxTrials,
                         double confidence, double boundaryBand, double maxClientLateness) {
    public static final String CONCURRENCY = "concurrency";
    /** Whole requests per second, open loop. */
    public static final String REQUEST_RATE = "request_rate";
    public static final int DEFAULT_MAX_PROBES = 8;
    public static final int DEFAULT_MAX_TRIALS = 3;
    public static final double DEFAULT_MAX_CLIENT_LATENESS_MS = 20;
    public static final double DEFAULT_BOUNDARY_BAND_PCT = 10;
}
