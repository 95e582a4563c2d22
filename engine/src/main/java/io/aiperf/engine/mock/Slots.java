package io.aiperf.engine.mock;

import java.util.PriorityQueue;

/**
 * The mock's serving slots (src-docs/mock-server.md, {@code --max-slots}): at most N requests are served at once,
 * the others wait first come, first served, as a saturated server's queue does. Every response is planned whole on
 * arrival, so a request's start is known then: the time the earliest of the N slots frees up, or its arrival if
 * that is later. Thread-safe.
 */
final class Slots {
    private final int count;
    /** When each busy slot frees up (monotonic nanos); at most {@link #count} entries. */
    private final PriorityQueue<Long> freeAt = new PriorityQueue<>();

    /** @param count slots; 0 or less for unlimited */
    Slots(final int count) {
        this.count = count;
    }

    int count() {
        return count;
    }

    /**
     * Takes a slot for a request arriving at {@code arrivalNanos} that is served for {@code serviceNanos}.
     *
     * @return when it starts being served (its arrival when a slot is free)
     */
    synchronized long admit(final long arrivalNanos, final long serviceNanos) {
        if (count <= 0) {
            return arrivalNanos;
        }
        final long start = freeAt.size() < count ? arrivalNanos : Math.max(arrivalNanos, freeAt.poll());
        freeAt.add(start + Math.max(0, serviceNanos));
        return start;
    }
}
