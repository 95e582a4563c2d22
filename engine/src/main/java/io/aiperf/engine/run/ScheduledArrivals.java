package io.aiperf.engine.run;

import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.dataset.Conversation;
import java.util.List;

/**
 * A trace's own timestamps as arrivals (AIPerf's fixed schedule): entry {@code i} is sent at its timestamp minus the
 * schedule's zero, measured from the phase start. The entries come sorted by timestamp and already cut to the
 * schedule's window. With auto offset the zero is the first timestamp of the whole dataset, not of the entries: a
 * shard's entries are every N-th row, and each shard must keep the rows' places in the trace (src-docs/distributed.md).
 */
final class ScheduledArrivals implements Arrivals {
    private final long[] offsetsNanos;
    private int next;
    private long previous;

    /** @param originMs the first replayed timestamp of the whole dataset (null: the entries' first) */
    ScheduledArrivals(final List<Conversation> entries, final PhaseConfig.Schedule schedule, final Long originMs) {
        this.offsetsNanos = new long[entries.size()];
        final long zero = schedule.zero(originMs != null ? originMs : entries.get(0).timestampMs());
        for (int i = 0; i < offsetsNanos.length; i++) {
            offsetsNanos[i] = Math.max(0, entries.get(i).timestampMs() - zero) * 1_000_000L;
        }
    }

    @Override
    public double nextNanos() {
        if (next >= offsetsNanos.length) {
            return Double.MAX_VALUE / 4; // past the last row: the phase stops at its request count first
        }
        final long at = offsetsNanos[next++];
        final long gap = at - previous;
        previous = at;
        return gap;
    }

    /** Arrivals per second over the replayed span, for the open loop's health figures. */
    double rate() {
        final long span = offsetsNanos.length < 2 ? 0 : offsetsNanos[offsetsNanos.length - 1] - offsetsNanos[0];
        return span <= 0 ? offsetsNanos.length : (offsetsNanos.length - 1) / (span / 1e9);
    }
}
