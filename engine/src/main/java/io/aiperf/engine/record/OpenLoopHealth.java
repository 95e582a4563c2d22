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

    /** What to tell the user when the loop fell behind, or null. */
    public String warning() {
        final boolean behind = missed > 0 || (sent > 0 && (double) late / sent > LATE_SHARE_WARNING);
        if (!behind && ceilingWaits == 0) {
            return null;
        }
        final StringBuilder sb = new StringBuilder(String.format(java.util.Locale.ROOT,
                "the open loop asked for %.1f req/s and achieved %.1f req/s", targetRate, achievedRate));
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
