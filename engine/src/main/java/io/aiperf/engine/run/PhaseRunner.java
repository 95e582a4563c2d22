package io.aiperf.engine.run;

import io.aiperf.engine.time.CancellationToken;
import io.aiperf.engine.client.InferenceClient;
import io.aiperf.engine.client.RequestTransport;
import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.config.PhaseKind;
import io.aiperf.engine.dataset.DatasetEntry;
import io.aiperf.engine.record.OpenLoopHealth;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.time.Clock;
import io.aiperf.engine.time.WallClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Recorder;

/**
 * Runs one phase (AIPerf's timing and load docs-4.4). Concurrency phases are a closed loop driven from completion
 * callbacks (no thread hand-off per request). Rate phases are an open loop on an absolute schedule: the
 * n-th target is the previous target plus a drawn interval, computed before issuing, with at most 10 ms of
 * catch-up so a stall re-anchors instead of bursting; concurrency, when set, is a ceiling. Sending stops at
 * the request count, at the duration, or on cancellation; then in-flight requests get the grace period.
 * {@link #startSending()} returns at once; {@link #awaitSendComplete()} and {@link #awaitDrain()} block.
 */
public final class PhaseRunner implements Phase {
    private static final long MAX_CATCHUP_NANOS = 10_000_000L;
    private static final double CANCEL_GRACE_SECONDS = 30.0;

    private final PhaseConfig phase;
    private final RequestSource source;
    private final RequestTransport client;
    private final Clock clock;
    private final WallClock wall;
    private final CancellationToken cancellation;
    private final long seed;
    private final ConcurrentLinkedQueue<RequestRecord> records = new ConcurrentLinkedQueue<>();
    private final Map<Integer, InferenceClient.InFlight> inFlight = new ConcurrentHashMap<>();
    private final AtomicInteger issued = new AtomicInteger();
    private final AtomicInteger pendingIssues = new AtomicInteger();
    private final AtomicInteger draining = new AtomicInteger();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final Recorder latencyMicros = new Recorder(3);
    private final Object monitor = new Object();
    private volatile boolean sendingStopped;
    private volatile boolean closed;
    private volatile long phaseStartNanos;
    private volatile long maxLagNanos;
    /** Written by the issuer thread only; read after it has stopped. */
    private final org.HdrHistogram.Histogram lagMicros = new org.HdrHistogram.Histogram(3);
    private long lateSends;
    private long missedArrivals;
    private long ceilingWaits;
    private volatile long lastSendNanos;
    private Semaphore ceiling;
    private Thread issuer;

    public PhaseRunner(final PhaseConfig phase, final RequestSource source, final RequestTransport client,
                       final Clock clock, final WallClock wall, final CancellationToken cancellation, final long seed) {
        this.phase = phase;
        this.source = source;
        this.client = client;
        this.clock = clock;
        this.wall = wall;
        this.cancellation = cancellation;
        this.seed = seed;
    }

    @Override
    public PhaseConfig phase() {
        return phase;
    }

    /** Starts issuing requests and returns at once. */
    @Override
    public void startSending() {
        phaseStartNanos = clock.nanoTime();
        if (phase.type().isRate()) {
            if (phase.concurrency() != null) {
                ceiling = new Semaphore(phase.concurrency());
            }
            issuer = new Thread(this::openLoop, "issuer-" + phase.name());
            issuer.setDaemon(true);
            issuer.start();
        } else {
            pendingIssues.addAndGet(phase.concurrency());
            drainIssues();
        }
    }

    /** Blocks until no more requests will be issued (count reached, duration over, or cancelled). */
    @Override
    public void awaitSendComplete() throws InterruptedException {
        synchronized (monitor) {
            while (!sendingStopped) {
                if (durationOver() || cancellation.isCancelled()) {
                    sendingStopped = true;
                    break;
                }
                monitor.wait(20);
            }
        }
    }

    /**
     * Blocks until every issued request finished, or the grace period ran out (then the rest are abandoned
     * and excluded), and returns the phase's records.
     */
    @Override
    public PhaseResult awaitDrain() throws InterruptedException {
        awaitSendComplete();
        final double grace = cancellation.isCancelled()
                ? Math.min(phase.effectiveGraceSeconds(), CANCEL_GRACE_SECONDS) : phase.effectiveGraceSeconds();
        long graceEnd = Double.isInfinite(grace) ? Long.MAX_VALUE : graceStart() + (long) (grace * 1e9);
        synchronized (monitor) {
            while (!inFlight.isEmpty()) {
                final long now = clock.nanoTime();
                if (now >= graceEnd) {
                    break;
                }
                if (cancellation.isCancelled() && graceEnd == Long.MAX_VALUE) {
                    graceEnd = now + (long) (CANCEL_GRACE_SECONDS * 1e9); // Ctrl-C while draining: bounded wait
                }
                monitor.wait(Math.max(1, Math.min(100, (graceEnd - now) / 1_000_000L)));
            }
            closed = true;
        }
        final long abandoned = inFlight.size();
        inFlight.values().forEach(InferenceClient.InFlight::cancel);
        inFlight.clear();
        if (issuer != null) {
            issuer.join(1000);
        }
        final List<RequestRecord> out = new ArrayList<>(records);
        return new PhaseResult(phase, out, issued.get(), abandoned, cancellation.isCancelled(), maxLagNanos,
                phase.type().isRate() ? openLoopHealth() : null);
    }

    private OpenLoopHealth openLoopHealth() {
        final long sent = issued.get();
        final double windowSeconds = Math.max(1e-9, (lastSendNanos - phaseStartNanos) / 1e9);
        final double achieved = sent <= 1 ? 0 : sent / windowSeconds;
        return new OpenLoopHealth(phase.rate(), achieved, sent, lateSends, missedArrivals, ceilingWaits,
                lagMicros.getValueAtPercentile(50) / 1000.0, lagMicros.getValueAtPercentile(99) / 1000.0,
                lagMicros.getMaxValue() / 1000.0);
    }

    private long graceStart() {
        if (cancellation.isCancelled()) {
            return clock.nanoTime();
        }
        return phase.durationSeconds() != null ? phaseStartNanos + (long) (phase.durationSeconds() * 1e9)
                : clock.nanoTime();
    }

    public long issuedCount() {
        return issued.get();
    }

    public long completedCount() {
        return completed.get();
    }

    public long errorCount() {
        return errors.get();
    }

    public int inFlightCount() {
        return inFlight.size();
    }

    /** Latency of requests completed since the last call, in microseconds (live view only). */
    public org.HdrHistogram.Histogram intervalLatencyMicros() {
        return latencyMicros.getIntervalHistogram();
    }

    private boolean durationOver() {
        return phase.durationSeconds() != null
                && clock.nanoTime() - phaseStartNanos >= (long) (phase.durationSeconds() * 1e9);
    }

    /**
     * Claims the next request index, or -1 when sending has stopped. The request is registered as in flight
     * before sending can be reported complete, so a drain never misses the last request.
     */
    private int claim() {
        if (sendingStopped) {
            return -1;
        }
        if (cancellation.isCancelled() || durationOver()) {
            stopSending();
            return -1;
        }
        final int index = issued.getAndIncrement();
        if (phase.requests() != null && index >= phase.requests()) {
            issued.decrementAndGet();
            stopSending();
            return -1;
        }
        inFlight.put(index, new InferenceClient.InFlight());
        if (phase.requests() != null && index == phase.requests() - 1) {
            stopSending();
        }
        return index;
    }

    private void stopSending() {
        synchronized (monitor) {
            sendingStopped = true;
            monitor.notifyAll();
        }
    }

    /** Closed-loop trampoline: completions add credits; one thread at a time turns credits into sends. */
    private void drainIssues() {
        if (draining.getAndIncrement() != 0) {
            return;
        }
        do {
            while (pendingIssues.get() > 0) {
                pendingIssues.decrementAndGet();
                final int index = claim();
                if (index < 0) {
                    pendingIssues.set(0);
                    break;
                }
                send(index, -1);
            }
        } while (draining.decrementAndGet() != 0);
    }

    private void openLoop() {
        final ArrivalIntervals intervals = new ArrivalIntervals(phase.type(), phase.rate(),
                phase.smoothness() == null ? 1.0 : phase.smoothness(), seed);
        long target = phaseStartNanos;
        while (!sendingStopped) {
            target += (long) intervals.nextNanos();
            long now = clock.nanoTime();
            if (target < now - MAX_CATCHUP_NANOS) {
                // AIPerf's bounded catch-up re-anchors after a stall instead of bursting; the arrivals the stall
                // swallowed are counted, so a loop that fell behind never reports the rate it did not deliver.
                missedArrivals += (long) ((now - target) / 1e9 * phase.rate());
                target = now;
            }
            while ((now = clock.nanoTime()) < target) {
                if (cancellation.isCancelled() || durationOver()) {
                    stopSending();
                    return;
                }
                LockSupport.parkNanos(Math.min(target - now, 50_000_000L));
            }
            if (ceiling != null && !ceiling.tryAcquire()) {
                ceilingWaits++; // the ceiling bites: counted, and said on the console
                try {
                    while (!ceiling.tryAcquire(20, TimeUnit.MILLISECONDS)) {
                        if (cancellation.isCancelled() || durationOver()) {
                            stopSending();
                            return;
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            final int index = claim();
            if (index < 0) {
                if (ceiling != null) {
                    ceiling.release();
                }
                return;
            }
            final long sendAt = clock.nanoTime();
            final long lag = Math.max(0, sendAt - target);
            if (lag > maxLagNanos) {
                maxLagNanos = lag;
            }
            lagMicros.recordValue(lag / 1000);
            if (lag > MAX_CATCHUP_NANOS) {
                lateSends++;
            }
            lastSendNanos = sendAt;
            send(index, target);
        }
    }

    /** @param intendedNanos the schedule's time for this request (open loop), or -1 */
    private void send(final int index, final long intendedNanos) {
        final DatasetEntry entry = source.entry(index);
        final String requestId = InferenceClient.fastUuid();
        final String correlationId = InferenceClient.fastUuid();
        final String model = source.model(index);
        final InferenceClient.InFlight handle = inFlight.get(index); // registered by claim()
        try {
            client.send(source.request(index), requestId, correlationId, handle,
                    response -> complete(index, entry, requestId, correlationId, model, response, intendedNanos));
        } catch (RuntimeException e) {
            // A request that cannot even be sent is an error record; the loop goes on (a closed loop would
            // otherwise never issue again, and a count-bounded phase would wait for it forever).
            final long now = clock.nanoTime();
            complete(index, entry, requestId, correlationId, model, new ResponseData(now, -1, new long[0], 0, null,
                    null, null, new io.aiperf.engine.record.ErrorDetails(null, e.getClass().getSimpleName(),
                    String.valueOf(e.getMessage()))), intendedNanos);
        }
    }

    private void complete(final int index, final DatasetEntry entry, final String requestId,
                          final String correlationId, final String model, final ResponseData response,
                          final long intendedNanos) {
        // Record before leaving the in-flight set: a drain that sees the set empty must also see the record.
        try {
            if (!closed && inFlight.containsKey(index)) {
                records.add(new RequestRecord(phase.name(), phase.kind() == PhaseKind.PROFILING, index, requestId,
                        correlationId, entry.conversationId(), model, wall.toEpochNanos(response.startPerfNanos()),
                        entry.inputTokens(), entry.outputTokens(), response, false, intendedNanos));
                completed.incrementAndGet();
                if (response.error() != null) {
                    errors.incrementAndGet();
                } else if (response.hasContent()) {
                    latencyMicros.recordValue(Math.max(0, (response.lastContentNanos() - response.startPerfNanos()) / 1000));
                }
            }
        } catch (RuntimeException e) {
            errors.incrementAndGet(); // a record that cannot be built still frees its slot below, so the loop goes on
        } finally {
            inFlight.remove(index); // whatever happened above, the request is no longer in flight
        }
        if (ceiling != null) {
            ceiling.release();
        } else if (!phase.type().isRate()) {
            pendingIssues.incrementAndGet();
            drainIssues();
        }
        if (inFlight.isEmpty() && sendingStopped) {
            synchronized (monitor) {
                monitor.notifyAll();
            }
        }
    }
}
