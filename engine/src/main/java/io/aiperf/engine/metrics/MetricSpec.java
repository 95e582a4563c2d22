package io.aiperf.engine.metrics;

import java.util.function.ToDoubleFunction;

/**
 * One metric of the catalogue ({@link MetricRegistry}): AIPerf tag, console header, display unit, direction, and,
 * for a per-request metric, how to read it from a record. Everything that names metrics (the calculator, the
 * console, the JSONL writer, goodput and the gate) reads this one definition.
 *
 * @param distribution a per-request distribution (stats), or a single run-level value
 * @param nanosToDisplay divisor from the stored value to the display unit (1e6 for ns to ms, 1 otherwise)
 * @param perRecord the value of one valid record in stored units (NaN when absent), or null for run-level metrics
 *                  and the list-valued inter-chunk latency
 * @param slo whether a goodput SLO may name it
 * @param console whether the console table shows it (every metric goes to the JSON and CSV exports)
 */
public record MetricSpec(String tag, String header, String unit, boolean distribution, boolean largerIsBetter,
                         double nanosToDisplay, ToDoubleFunction<RecordMetrics> perRecord, boolean slo,
                         boolean console) {

    /** A run-level value shown on the console. */
    static MetricSpec scalar(final String tag, final String header, final String unit, final boolean larger) {
        return new MetricSpec(tag, header, unit, false, larger, 1, null, false, true);
    }

    /** A per-request metric. */
    static MetricSpec record(final String tag, final String header, final String unit, final boolean larger,
                             final double nanosToDisplay, final ToDoubleFunction<RecordMetrics> perRecord,
                             final boolean slo, final boolean console) {
        return new MetricSpec(tag, header, unit, true, larger, nanosToDisplay, perRecord, slo, console);
    }

    /** The record's value in the display unit, NaN when absent. */
    public double displayValue(final RecordMetrics m) {
        return perRecord == null ? Double.NaN : perRecord.applyAsDouble(m) / nanosToDisplay;
    }

    /** Whether the unit counts things (tokens, images, reads) or is a 0/1 ratio, so record values are whole numbers. */
    public boolean whole() {
        return unit.equals("tokens") || unit.equals("images") || unit.equals("count") || unit.equals("ratio");
    }
}
