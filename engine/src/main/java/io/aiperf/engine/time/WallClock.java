package io.aiperf.engine.time;

/**
 * Maps monotonic readings to epoch nanoseconds through one anchor taken at start, so wall stamps in the
 * exports keep the monotonic clock's precision and never jump. Immutable; thread-safe.
 */
public final class WallClock {
    private final long anchorEpochNanos;
    private final long anchorMonoNanos;

    public WallClock(final Clock clock) {
        final java.time.Instant now = java.time.Instant.now();
        this.anchorMonoNanos = clock.nanoTime();
        this.anchorEpochNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    public long toEpochNanos(final long monoNanos) {
        return anchorEpochNanos + (monoNanos - anchorMonoNanos);
    }
}
