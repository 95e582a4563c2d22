package io.aiperf.engine.metrics;

/**
 * A metric's identity: AIPerf tag, console header, display unit, and whether it is a per-request
 * distribution or a single value.
 *
 * @param nanosToDisplay divisor from the stored value to the display unit (1e6 for ns to ms, 1 otherwise)
 */
public record MetricSpec(String tag, String header, String unit, boolean distribution, boolean largerIsBetter,
                         double nanosToDisplay) {
}
