package io.aiperf.engine.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Upstream AIPerf 0.13's replay-schedule fidelity of a fixed schedule: how late each request left against the
 * schedule's time for it, anchored at the least-late request of the phase (a lateness every request shares cannot be
 * told from the schedule's own zero, so it reads as none). Its p50, p90 and p99 in milliseconds, by linear
 * interpolation between ranks, and a 0/1 flag set when the p99 exceeds {@value #DEGRADED_THRESHOLD_MS} ms.
 * Over the valid requests that had a scheduled time (a later turn of a session has none: it follows its previous
 * turn's reply); run-level only, never per timeslice, since re-anchoring a slice would hide the drift it measures.
 * Keeps one double a request, for fixed schedules only. Not thread-safe.
 */
public final class ReplayScheduleLag {
    /** Upstream's fixed threshold (no setting changes it). */
    static final double DEGRADED_THRESHOLD_MS = 500.0;
    private static final double NS_TO_MS = 1e6;

    public static final MetricSpec P50 = spec("replay_sched_lag_p50", "Replay Schedule Lag p50", "ms");
    public static final MetricSpec P90 = spec("replay_sched_lag_p90", "Replay Schedule Lag p90", "ms");
    public static final MetricSpec P99 = spec("replay_sched_lag_p99", "Replay Schedule Lag p99", "ms");
    public static final MetricSpec DEGRADED = spec("replay_sched_degraded", "Replay Schedule Degraded", "count");

    /** In upstream's export order, after every other metric. */
    public static final List<MetricSpec> ALL = List.of(P50, P90, P99, DEGRADED);

    private double[] delaysNanos = new double[64];
    private int count;

    private static MetricSpec spec(final String tag, final String header, final String unit) {
        return new MetricSpec(tag, header, unit, false, false, 1, null, false, false);
    }

    /** Takes a valid request's delay from its scheduled time to its send, ns; NaN (no scheduled time) is skipped. */
    public void add(final double scheduleDelayNanos) {
        if (Double.isNaN(scheduleDelayNanos)) {
            return;
        }
        if (count == delaysNanos.length) {
            delaysNanos = Arrays.copyOf(delaysNanos, count * 2);
        }
        delaysNanos[count++] = scheduleDelayNanos;
    }

    /** Puts the four values into {@code out}; nothing when no request had a scheduled time. */
    void putInto(final Map<String, MetricValue> out) {
        if (count == 0) {
            return;
        }
        final double[] lagMs = Arrays.copyOf(delaysNanos, count);
        Arrays.sort(lagMs);
        final double least = lagMs[0];
        for (int i = 0; i < lagMs.length; i++) {
            lagMs[i] = (lagMs[i] - least) / NS_TO_MS;
        }
        final double p99 = interpolated(lagMs, 99);
        out.put(P50.tag(), new MetricValue(P50, null, interpolated(lagMs, 50)));
        out.put(P90.tag(), new MetricValue(P90, null, interpolated(lagMs, 90)));
        out.put(P99.tag(), new MetricValue(P99, null, p99));
        out.put(DEGRADED.tag(), new MetricValue(DEGRADED, null, p99 > DEGRADED_THRESHOLD_MS ? 1.0 : 0.0));
    }

    /** The q-th percentile of sorted values, interpolated linearly between the ranks around q/100 x (n-1). */
    static double interpolated(final double[] sorted, final double q) {
        final double rank = q / 100.0 * (sorted.length - 1);
        final int below = (int) Math.floor(rank);
        final int above = Math.min(below + 1, sorted.length - 1);
        return sorted[below] + (sorted[above] - sorted[below]) * (rank - below);
    }
}
