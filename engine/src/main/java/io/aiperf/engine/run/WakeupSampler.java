package io.aiperf.engine.run;

import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Measures how late the client's own threads wake up during a cell: a thread asks for a 5 ms sleep over and over and
 * records the oversleep. On an idle core that is tens of microseconds; when the client is short of CPU it grows to
 * milliseconds, and every timestamp the client takes is late by as much (src-docs/validity.md).
 */
final class WakeupSampler implements AutoCloseable {
    private static final long PERIOD_NANOS = 5_000_000L;

    private final Histogram lateMicros = MicrosHistograms.histogram();
    private final Thread thread = new Thread(this::loop, "wakeup-sampler");
    private volatile boolean stopped;

    WakeupSampler start() {
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private void loop() {
        while (!stopped) {
            final long asked = System.nanoTime() + PERIOD_NANOS;
            LockSupport.parkNanos(PERIOD_NANOS);
            final long late = System.nanoTime() - asked;
            if (late >= 0) {
                synchronized (lateMicros) {
                    lateMicros.recordValue(MicrosHistograms.clamp(late / 1000));
                }
            }
        }
    }

    /** The 99th percentile of the oversleep, in milliseconds (0 before any sample). */
    double p99Millis() {
        synchronized (lateMicros) {
            return lateMicros.getTotalCount() == 0 ? 0 : lateMicros.getValueAtPercentile(99) / 1000.0;
        }
    }

    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(thread);
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
