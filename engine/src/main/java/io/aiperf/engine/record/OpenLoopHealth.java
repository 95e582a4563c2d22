package io.aiperf.engine.record;

/**
 * Whether an open loop delivered the load it was asked for (src-docs/failure-modes.md). An open loop that falls
 * behind does not test the rate on its label, so every shortfall is counted, never skipped silently.
 *
 * @param targetRate the requested arrivals per second
 * @param achievedRate requests sent per second between the first and the last send
 * @param scheduled arrivals that fell due while the phase was sending (sent, missed, or held by the ceiling)
 * @param sent requests sent
 * @param late sends more than the catch-up bound (10 ms) behind their scheduled time
 * @param missed arrivals skipped when the schedule was re-anchored after a stall (AIPerf's bounded catch-up),
 *               estimated as the stalled time times the rate
 * @param ceilingWaits arrivals that had to wait for the concurrency ceiling
 * @param lagP50Millis median lateness of a send against its schedule
 * @param lagP99Millis 99th percentile of that lateness
 * @param lagMaxMillis worst lateness
 */
public record OpenLoopHealth(double targetRate, double achievedRate, long scheduled, long sent, long late, long missed,
                             long ceilingWaits, double lagP50Millis, double lagP99Millis, double lagMaxMillis) {
    /** Share of late sends above which the client, not the server, shapes the numbers. */
    public static final double LATE_SHARE_WARNING = 0.05;

    /** Share of the arrivals that fell due that may go unsent before the client is said to have limited the run. */
    public static final double SHORTFALL_LIMIT = 0.005;
    /** How late the 99th percentile of sends may be before the client is said to have limited the run. */
    public static final double LAG_P99_LIMIT_MILLIS = 1.0;

    /**
     * Whether the client, not the server, shaped the load: more than 0.5% of the due arrivals were never sent, or
     * the 99th percentile send was over 1 ms late (src-docs/performance.md). When arrivals waited for the
     * --concurrency ceiling, the ceiling asked for is what held the load back, and that is reported instead.
     */
    public boolean clientLimited() {
        return ceilingWaits == 0
                && ((scheduled > 0 && missed > SHORTFALL_LIMIT * scheduled) || lagP99Millis > LAG_P99_LIMIT_MILLIS);
    }

    /** What to tell the user when the loop fell behind, or null. */
    public String warning() {
        final boolean behind = missed > 0 || (sent > 0 && (double) late / sent > LATE_SHARE_WARNING);
        if (!behind && ceilingWaits == 0 && !clientLimited()) {
            return null;
        }
        final StringBuilder sb = new StringBuilder(String.format(java.util.Locale.ROOT,
                "%sthe open loop asked for %.1f req/s and achieved %.1f req/s",
                clientLimited() ? "the client limited the run: " : "", targetRate, achievedRate));
        if (lagP99Millis > LAG_P99_LIMIT_MILLIS) {
            sb.append(String.format(java.util.Locale.ROOT, "; p99 of sends was %.2f ms behind schedule", lagP99Millis));
        }
        if (missed > 0) {
            sb.append(String.format(java.util.Locale.ROOT, "; about %d arrival(s) were skipped after stalls", missed));
        }
        if (late > 0) {
            sb.append(String.format(java.util.Locale.ROOT, "; %d of %d sends were over 10 ms late (p99 %.1f ms)", late,
                    sent, lagP99Millis));
        }
        if (ceilingWaits > 0) {
            sb.append("; ").append(ceilingWaits).append(" arrival(s) waited for the --concurrency ceiling");
        }
        return sb.append(": the load was lower than asked, so these numbers understate what the rate would do")
                .toString();
    }
}
