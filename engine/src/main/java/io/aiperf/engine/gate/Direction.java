package io.aiperf.engine.gate;

/** Which way is better for a metric: latencies lower, throughputs higher. */
public enum Direction {
    LOWER_IS_BETTER, HIGHER_IS_BETTER;

    /** Signed change in the bad direction: positive means worse. */
    double regression(final double baseline, final double candidate) {
        return this == LOWER_IS_BETTER ? candidate - baseline : baseline - candidate;
    }
}
