package io.aiperf.engine.record;

import java.util.Locale;

/**
 * Whether an open loop delivered the load it was asked for (src-docs/failure-modes.md). An open loop that falls
 * behind does not test the rate on its label, so every shortfall is counted, never skipped silently.
 *
 * @param targetRate the requested arrivals per second
 * @param scheduleRate arrivals per second of the schedule that was drawn: the arrivals that fell due between the
 *                     first and the last send's due times (skipped ones included) over that span; the target for a
 *                     constant loop, the target give or take chance for a Poisson or gamma one; 0 with fewer than
 *                     two sends
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
public record OpenLoopHealth(double targetRate, double scheduleRate, double achievedRate, long scheduled, long sent,
                             long late, long missed, long ceilingWaits, double lagP50Millis, double lagP99Millis,
                             double lagMaxMillis) {
    /** Share of late sends above which the client, not the server, shapes the latencies from intended. */
    public static final double LATE_SHARE_WARNING = 0.05;

    /**
     * Share of the due arrivals that may go unsent, and share by which the sending may take longer than the drawn
     * schedule, before the client is said to have limited the run.
     */
    public static final double SHORTFALL_LIMIT = 0.005;
    /** A stretch of the sending window within the catch-up bound is lateness, not a lower rate. */
    public static final double CATCHUP_SECONDS = 0.010;

    /**
     * Whether the load was lower than the schedule asked: more than 0.5% of the due arrivals were never sent, or
     * sending took more than 0.5% (and more than the 10 ms catch-up bound) longer than the drawn schedule. Judged
     * against the schedule that was drawn, so a Poisson run's own spread around its mean is not a shortfall; and
     * not by the lag alone: sends a few ms late on a busy host still deliver the rate.
     */
    public boolean rateShort() {
        if (scheduled > 0 && missed > SHORTFALL_LIMIT * scheduled) {
            return true;
        }
        if (sent < 2 || achievedRate <= 0 || scheduleRate <= 0 || late == 0) {
            return false; // every send on time kept the schedule: whatever the rates' rounding says, none fell short
        }
        final double drawnSeconds = (sent - 1) / scheduleRate;
        final double stretch = (sent - 1) / achievedRate - drawnSeconds;
        return stretch > Math.max(CATCHUP_SECONDS, SHORTFALL_LIMIT * drawnSeconds);
    }

    /**
     * Whether the client, not the server, shaped the load: the rate was short ({@link #rateShort()}) while no
     * arrival waited for the --concurrency ceiling (when one did, the ceiling asked for held the load back, and
     * that is reported instead).
     */
    public boolean clientLimited() {
        return ceilingWaits == 0 && rateShort();
    }

    /**
     * The console's short line when the loop fell behind, or null: the one limit that matters most, with its figure
     * ({@link #warning()} has them all, for the log).
     */
    public String brief() {
        if (warning() == null) {
            return null;
        }
        final boolean lateShare = sent > 0 && (double) late / sent > LATE_SHARE_WARNING;
        if (rateShort()) {
            return String.format(Locale.ROOT, clientLimited() ? "the client limited the run: %.1f of %.1f req/s"
                    : "the --concurrency ceiling held the load to %.1f of %.1f req/s", achievedRate,
                    scheduleRate > 0 ? scheduleRate : targetRate);
        }
        if (lateShare) {
            return String.format(Locale.ROOT, "the rate held; %d of %d sends were over 10 ms late (p99 %.1f ms)",
                    late, sent, lagP99Millis);
        }
        return ceilingWaits > 0 ? "the rate held; " + ceilingWaits + " arrival(s) waited for the --concurrency ceiling"
                : "the rate held; about " + missed + " arrival(s) were skipped after stalls";
    }

    /** What to tell the user when the loop fell behind, or null: one line, naming each limit that tripped. */
    public String warning() {
        final boolean lateShare = sent > 0 && (double) late / sent > LATE_SHARE_WARNING;
        if (!rateShort() && missed == 0 && !lateShare && ceilingWaits == 0) {
            return null;
        }
        final StringBuilder sb = new StringBuilder(clientLimited() ? "the client limited the run: " : "");
        sb.append(String.format(Locale.ROOT, "the open loop asked for %.1f req/s", targetRate));
        if (missed == 0 && scheduleRate > 0 && Math.abs(scheduleRate - targetRate) > SHORTFALL_LIMIT * targetRate) {
            sb.append(String.format(Locale.ROOT, " (its schedule drew %.1f)", scheduleRate)); // Poisson, gamma
        }
        sb.append(String.format(Locale.ROOT, " and achieved %.1f req/s", achievedRate));
        if (missed > 0) {
            sb.append(String.format(Locale.ROOT, "; about %d arrival(s) were skipped after stalls", missed));
        }
        if (late > 0) {
            sb.append(String.format(Locale.ROOT, "; %d of %d sends were over 10 ms late (p99 %.1f ms)", late, sent,
                    lagP99Millis));
        }
        if (ceilingWaits > 0) {
            sb.append("; ").append(ceilingWaits).append(" arrival(s) waited for the --concurrency ceiling");
        }
        if (rateShort()) {
            return sb.append(": the load was lower than asked, so these numbers understate what the rate would do")
                    .toString();
        }
        return sb.append(lateShare ? ": the rate held, but latencies from intended include the client's lateness"
                : ": the rate held").toString();
    }
}
