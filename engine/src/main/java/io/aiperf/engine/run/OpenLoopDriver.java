package io.aiperf.engine.run;

import io.aiperf.engine.record.OpenLoopHealth;
import io.aiperf.engine.time.Clock;
import io.aiperf.engine.time.Parker;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * An open loop on an absolute schedule (AIPerf's timing and load docs): the n-th arrival is the previous one plus
 * a drawn interval, computed before sending, so a slow send delays nothing after it. After a stall the schedule
 * re-anchors with at most 10 ms of catch-up instead of bursting, and the arrivals the stall swallowed are counted
 * as missed. A concurrency ceiling, when set, makes arrivals wait; each wait is counted. One issuer thread.
 */
final class OpenLoopDriver implements LoadDriver {
    static final long MAX_CATCHUP_NANOS = 10_000_000L;
    private static final long MAX_PARK_NANOS = 50_000_000L;

    private final SendPort port;
    private final Arrivals intervals;
    private final double rate;
    private final Clock clock;
    private final Parker parker;
    private final Semaphore ceiling; // null without --concurrency
    private final String name;
    // Written by the issuer thread only; read after join().
    private final Histogram lagMicros = new Histogram(3);
    private long scheduled;
    private long late;
    private long missed;
    private long ceilingWaits;
    private long firstSendNanos = -1;
    private long lastSendNanos;
    private Thread issuer;

    OpenLoopDriver(final SendPort port, final Arrivals intervals, final double rate, final Integer ceiling,
                   final Clock clock, final Parker parker, final String name) {
        this.port = port;
        this.intervals = intervals;
        this.rate = rate;
        this.clock = clock;
        this.parker = parker;
        this.ceiling = ceiling == null ? null : new Semaphore(ceiling);
        this.name = name;
    }

    @Override
    public void start(final long phaseStartNanos) {
        issuer = new Thread(() -> run(phaseStartNanos), "issuer-" + name);
        issuer.setDaemon(true);
        issuer.start();
    }

    @Override
    public void onComplete() {
        if (ceiling != null) {
            ceiling.release();
        }
    }

    @Override
    public void join() throws InterruptedException {
        if (issuer != null) {
            issuer.join(1000);
        }
    }

    private void run(final long startNanos) {
        double target = startNanos; // a double, so fractional intervals never drift
        while (true) {
            target += intervals.nextNanos();
            long now = clock.nanoTime();
            if (target < now - MAX_CATCHUP_NANOS) {
                final long swallowed = (long) ((now - target) / 1e9 * rate);
                missed += swallowed;
                scheduled += swallowed;
                target = now;
            }
            while ((now = clock.nanoTime()) < (long) target) {
                if (port.mustStop()) {
                    return;
                }
                parker.parkNanos(Math.min((long) target - now, MAX_PARK_NANOS));
            }
            if (port.mustStop()) {
                return; // due at or after the end
            }
            scheduled++; // the arrival is due
            if (!acquireSlot()) {
                return;
            }
            final int index = port.claim();
            if (index < 0) {
                onComplete(); // the slot was never used
                return;
            }
            final long sendAt = clock.nanoTime();
            final long lag = Math.max(0, sendAt - (long) target);
            lagMicros.recordValue(lag / 1000);
            if (lag > MAX_CATCHUP_NANOS) {
                late++;
            }
            if (firstSendNanos < 0) {
                firstSendNanos = sendAt;
            }
            lastSendNanos = sendAt;
            port.send(index, (long) target);
        }
    }

    /** Takes a concurrency slot, waiting when the ceiling bites; false when sending must stop instead. */
    private boolean acquireSlot() {
        if (ceiling == null || ceiling.tryAcquire()) {
            return true;
        }
        ceilingWaits++;
        try {
            while (!ceiling.tryAcquire(20, TimeUnit.MILLISECONDS)) {
                if (port.mustStop()) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Worst lateness of a send against its schedule. */
    long maxLagNanos() {
        return lagMicros.getMaxValue() * 1000;
    }

    /** How the loop kept its schedule; call after {@link #join()}. */
    OpenLoopHealth health(final long sent) {
        final double windowSeconds = (lastSendNanos - firstSendNanos) / 1e9;
        final double achieved = sent <= 1 || windowSeconds <= 0 ? 0 : (sent - 1) / windowSeconds;
        return new OpenLoopHealth(rate, achieved, scheduled, sent, late, missed, ceilingWaits,
                lagMicros.getValueAtPercentile(50) / 1000.0, lagMicros.getValueAtPercentile(99) / 1000.0,
                lagMicros.getMaxValue() / 1000.0);
    }
}
