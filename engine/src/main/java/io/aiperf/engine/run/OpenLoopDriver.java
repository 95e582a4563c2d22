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
    /**
     * The last stretch before an arrival is spun, not parked: a parked thread wakes up to the kernel's timer slack
     * (about 50 us) late. At most a quarter of the mean interval, though: at 20,000 arrivals per second a 50 us spin
     * would keep a whole core busy, the one the server and the event loop need (P2 in bench/run.sh). The schedule is
     * absolute, so a later wake-up only delays that send, and the lag is counted.
     */
    static final long SPIN_NANOS = 50_000L;
    /**
     * At rates where arrivals come closer than this, the issuer hands them over in batches: it waits until this long
     * after the first arrival of a batch is due, then hands over every arrival due by then, and the event loop is
     * woken once for them all instead of once each (bench/history/analyses-2026-12.md: at 20,000 per second those
     * wake-ups, the issuer's and the loop's, cost more CPU than the 2 cores had). Each send's lateness, up to this plus
     * the wake-up's, is counted in the schedule lag as before.
     */
    static final long BATCH_NANOS = 200_000L;

    private final SendPort port;
    private final Arrivals intervals;
    private final double rate;
    private final Clock clock;
    private final Parker parker;
    private final Semaphore ceiling; // null without --concurrency
    private final int ceilingWidth;
    private final Ramp ceilingRamp; // null: the ceiling is whole from the start
    private final double rateRampNanos; // 0: no rate ramp
    private final String name;
    private final long spinNanos;
    /** How long after its first arrival is due a batch is handed over; 0: every arrival alone, when due. */
    private final long batchNanos;
    // Written by the issuer thread only; read after join().
    private final Histogram lagMicros = MicrosHistograms.histogram();
    private long scheduled;
    private long late;
    private long missed;
    private long ceilingWaits;
    private long firstSendNanos = -1;
    private long lastSendNanos;
    private double firstDueNanos;
    private double lastDueNanos;
    private long startNanos;
    private long dueAtFirstSend; // scheduled, counted at the first send and at the last
    private long dueAtLastSend;
    private Thread issuer;
    /** The next arrival's due time, ns (a double, so fractional intervals never drift); the issuer's own. */
    private double target;

    OpenLoopDriver(final SendPort port, final Arrivals intervals, final double rate, final Integer ceiling,
                   final Clock clock, final Parker parker, final String name) {
        this(port, intervals, rate, ceiling, clock, parker, name, null, 0);
    }

    /**
     * @param ceilingRamp how the ceiling rises from 1 (a concurrency ramp), or null
     * @param rateRampSeconds how long the rate takes to reach its target (AIPerf's rate ramp), or 0
     */
    OpenLoopDriver(final SendPort port, final Arrivals intervals, final double rate, final Integer ceiling,
                   final Clock clock, final Parker parker, final String name, final Ramp ceilingRamp,
                   final double rateRampSeconds) {
        this.port = port;
        this.intervals = intervals;
        this.rate = rate;
        this.clock = clock;
        this.parker = parker;
        this.ceilingWidth = ceiling == null ? 0 : ceiling;
        this.ceilingRamp = ceiling == null || ceiling == 1 ? null : ceilingRamp;
        this.ceiling = ceiling == null ? null : new Semaphore(this.ceilingRamp == null ? ceiling : 1);
        this.rateRampNanos = rateRampSeconds * 1e9;
        this.name = name;
        this.spinNanos = (long) Math.min(SPIN_NANOS, 1e9 / rate / 4);
        this.batchNanos = rate * BATCH_NANOS / 1e9 >= 2 ? BATCH_NANOS : 0;
    }

    /**
     * How much longer than drawn the interval due at {@code offsetNanos} into the phase is: the target rate over the
     * ramp's current rate, which starts at target x 0.1 s / ramp and rises every 0.1 s (AIPerf's rate ramp).
     */
    private double rampStretch(final double offsetNanos) {
        if (rateRampNanos <= 0 || offsetNanos >= rateRampNanos) {
            return 1;
        }
        final double step = 100_000_000.0;
        final double share = Math.min(1, (Math.floor(offsetNanos / step) + 1) * step / rateRampNanos);
        return 1 / share;
    }

    @Override
    public void start(final long phaseStartNanos) {
        if (ceilingRamp != null) {
            ceilingRamp.start(phaseStartNanos, ceilingWidth, port, ceiling::release);
        }
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
        if (ceilingRamp != null) {
            ceilingRamp.join();
        }
    }

    private void run(final long startNanos) {
        this.startNanos = startNanos;
        // A new thread's first random draw initialises its generator: done here, not first inside the request
        // path, whose compiled code (shared with the warmup's issuer) would be thrown away for that one branch.
        java.util.concurrent.ThreadLocalRandom.current();
        final io.aiperf.engine.client.HandOverBatch batch = io.aiperf.engine.client.HandOverBatch.ofThisThread();
        try {
            issue(startNanos, batch);
        } finally {
            batch.close();
        }
    }

    private void issue(final long startNanos, final io.aiperf.engine.client.HandOverBatch batch) {
        target = startNanos;
        while (issueOne(batch)) {
            // each call one arrival
        }
    }

    /**
     * Waits for the next arrival and sends it; false when sending stops. One call per arrival, so the JIT compiles
     * this as a method the warmup calls thousands of times, and the profiling phase's new issuer thread starts in
     * that compiled code; as the body of one long loop it was compiled on the stack of each issuer thread anew, and
     * the profiling phase's ran its first two seconds in slower code (bench/history/analyses-2026-12.md, part 6).
     */
    private boolean issueOne(final io.aiperf.engine.client.HandOverBatch batch) {
        target += intervals.nextNanos(target - startNanos) * rampStretch(target - startNanos);
        long now = clock.nanoTime();
        if (target < now - MAX_CATCHUP_NANOS) {
            final long swallowed = (long) ((now - target) / 1e9 * rate);
            missed += swallowed;
            scheduled += swallowed;
            target = now;
        }
        // Not due yet: the batch so far goes to the loops, and the next one is handed over batchNanos after
        // this arrival is due (at once, without batches). An arrival already due joins the open batch.
        final long handOverAt = (long) target > now ? (long) target + batchNanos : now;
        if (handOverAt > now) {
            batch.close();
        }
        while ((now = clock.nanoTime()) < handOverAt) {
            if (port.mustStop()) {
                return false;
            }
            final long wait = handOverAt - now;
            if (wait > spinNanos) {
                parker.parkNanos(Math.min(wait - spinNanos, MAX_PARK_NANOS));
            } else {
                parker.spin(wait);
            }
        }
        if (port.mustStop()) {
            return false; // due at or after the end
        }
        if (batchNanos > 0) {
            batch.open();
        }
        scheduled++; // the arrival is due
        if (!acquireSlot()) {
            return false;
        }
        final int index = port.claim();
        if (index < 0) {
            onComplete(); // the slot was never used
            return false;
        }
        final long sendAt = clock.nanoTime();
        final long lag = Math.max(0, sendAt - (long) target);
        lagMicros.recordValue(MicrosHistograms.clamp(lag / 1000));
        if (lag > MAX_CATCHUP_NANOS) {
            late++;
        }
        if (firstSendNanos < 0) {
            firstSendNanos = sendAt;
            firstDueNanos = target;
            dueAtFirstSend = scheduled;
        }
        lastSendNanos = sendAt;
        lastDueNanos = target;
        dueAtLastSend = scheduled;
        port.send(index, (long) target);
        return true;
    }

    /** Takes a concurrency slot, waiting when the ceiling bites; false when sending must stop instead. */
    private boolean acquireSlot() {
        if (ceiling == null || ceiling.tryAcquire()) {
            return true;
        }
        // The requests handed over so far go now: the slot this waits for is freed by one of them ending.
        io.aiperf.engine.client.HandOverBatch.ofThisThread().close();
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
        final double drawnSeconds = (lastDueNanos - firstDueNanos) / 1e9;
        // Arrivals that fell due over the drawn span, those swallowed by a stall included (the re-anchored schedule
        // spans the stall, and the arrivals it skipped are counted as due).
        final double drawn = sent <= 1 || drawnSeconds <= 0 ? 0 : (dueAtLastSend - dueAtFirstSend) / drawnSeconds;
        final double asked = intervals.meanRate(firstDueNanos - startNanos, lastDueNanos - startNanos);
        return new OpenLoopHealth(Double.isNaN(asked) ? rate : asked, drawn, achieved, scheduled, sent, late, missed, ceilingWaits,
                lagMicros.getValueAtPercentile(50) / 1000.0, lagMicros.getValueAtPercentile(99) / 1000.0,
                lagMicros.getMaxValue() / 1000.0);
    }
}
