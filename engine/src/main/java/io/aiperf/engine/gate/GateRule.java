package io.aiperf.engine.gate;

/**
 * One regression rule. Limits are in the metric's display unit (ms for latencies); nulls are unset.
 *
 * @param cell glob over cell labels ({@code *} matches any run), or null for every cell
 * @param max absolute upper limit of the candidate value
 * @param min absolute lower limit of the candidate value
 * @param maxIncreasePct largest allowed increase against the baseline, in percent
 * @param maxDecreasePct largest allowed decrease against the baseline, in percent
 * @param maxRegressionPct largest allowed change in the metric's bad direction, in percent
 * @param noiseFloor absolute changes smaller than this never break a relative limit
 * @param significance require Welch's t-test to reject "no change" at {@code alpha} when both sides have 2+ trials
 */
public record GateRule(String metric, String stat, String cell, Direction direction, Double max, Double min,
                       Double maxIncreasePct, Double maxDecreasePct, Double maxRegressionPct, Double noiseFloor,
                       Criticality criticality, boolean significance, double alpha) {
    /** The metric of a rule on a capacity search's result (src-docs/capacity.md), not on a cell's summary. */
    public static final String CAPACITY = "capacity";

    /** Whether it is a rule on the capacity a search found. */
    public boolean capacity() {
        return CAPACITY.equals(metric);
    }

    public boolean hasRelativeLimit() {
        return maxIncreasePct != null || maxDecreasePct != null || maxRegressionPct != null;
    }

    /** A short name for reports, e.g. "time_to_first_token p99". */
    public String title() {
        return capacity() ? metric : metric + " " + stat;
    }

    /** The limits in words, e.g. "+10% max". */
    public String limitText() {
        final StringBuilder sb = new StringBuilder();
        append(sb, maxIncreasePct, "+%s%% max");
        append(sb, maxDecreasePct, "-%s%% max");
        append(sb, maxRegressionPct, "%s%% regression max");
        append(sb, max, "<= %s");
        append(sb, min, ">= %s");
        return sb.toString();
    }

    /**
     * The limits in words with the metric's unit on the absolute ones, e.g. "+10% max, <= 500 ms", for messages a
     * person reads; {@link #limitText()} stays the rule's name in the JUnit report, so its history carries on.
     */
    public String limitText(final String unit) {
        if (unit == null || unit.isEmpty() || max == null && min == null) {
            return limitText();
        }
        final StringBuilder sb = new StringBuilder();
        append(sb, maxIncreasePct, "+%s%% max");
        append(sb, maxDecreasePct, "-%s%% max");
        append(sb, maxRegressionPct, "%s%% regression max");
        append(sb, max, "<= %s " + unit.replace("%", "%%"));
        append(sb, min, ">= %s " + unit.replace("%", "%%"));
        return sb.toString();
    }

    private static void append(final StringBuilder sb, final Double v, final String format) {
        if (v != null) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(String.format(java.util.Locale.ROOT, format, Numbers.plain(v)));
        }
    }
}
