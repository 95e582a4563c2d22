package io.aiperf.engine.run;

import io.aiperf.engine.time.Clock;
import io.aiperf.engine.time.Parker;

/**
 * A concurrency ramp (AIPerf's {@code --concurrency-ramp-duration}): from 1 slot at the phase start to N at the end of
 * the ramp, one more slot every {@code duration / (N - 1)}, on its own thread. Stops early when sending stops.
 */
final class Ramp {
    private static final long MAX_PARK_NANOS = 50_000_000L;
    private final long durationNanos;
    private final Clock clock;
    private final Parker parker;
    private final String name;
    private Thread thread;

    Ramp(final double seconds, final Clock clock, final Parker parker, final String name) {
        this.durationNanos = (long) (seconds * 1e9);
        this.clock = clock;
        this.parker = parker;
        this.name = name;
    }

    /** Adds {@code width - 1} slots over the ramp, calling {@code addSlot} for each. */
    void start(final long startNanos, final int width, final SendPort port, final Runnable addSlot) {
        thread = new Thread(() -> {
            for (int k = 2; k <= width; k++) {
                final long due = startNanos + durationNanos * (k - 1) / (width - 1);
                long now;
                while ((now = clock.nanoTime()) < due) {
                    if (port.mustStop()) {
                        return;
                    }
                    parker.parkNanos(Math.min(due - now, MAX_PARK_NANOS));
                }
                if (port.mustStop()) {
                    return;
                }
                addSlot.run();
            }
        }, "ramp-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    void join() throws InterruptedException {
        if (thread != null) {
            thread.join(1000);
        }
    }
}
