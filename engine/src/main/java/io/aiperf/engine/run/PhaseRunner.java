package io.aiperf.engine.run;

import io.aiperf.engine.client.InFlight;
import io.aiperf.engine.client.PreparedRequest;
import io.aiperf.engine.client.InferenceClient;
import io.aiperf.engine.client.RequestTransport;
import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.config.PhaseKind;
import io.aiperf.engine.config.DatasetConfig;
import io.aiperf.engine.config.LoadType;
import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.record.ErrorDetails;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.time.CancellationToken;
import io.aiperf.engine.time.Clock;
import io.aiperf.engine.time.Parker;
import io.aiperf.engine.time.WallClock;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Runs one phase (AIPerf's timing and load docs): a {@link LoadDriver} decides when to send (closed or open loop),
 * the {@link InFlightTracker} holds what is on the wire, and this class ties them to the transport. Sending stops
 * at the request count, at the duration, or on cancellation; then in-flight requests get the grace period.
 * {@link #startSending()} returns at once; {@link #awaitSendComplete()} and {@link #awaitDrain()} block.
 * <p>
 * It is over 400 lines because sending, stopping (count, duration, cancellation) and the grace-period drain of a
 * phase coordinate the same in-flight state across the driver's and the I/O threads.
 */
public final class PhaseRunner implements Phase {
    private static final double CANCEL_GRACE_SECONDS = 30.0;

    private final PhaseConfig phase;
    /**
     * Whether this is a profiling phase, and the cancellation rate it applies (0 in a warmup), read as values by
     * the request path: code that branched on the phase's kind per request took a new course when profiling began,
     * and the JIT threw away and recompiled the event loop's and the issuer's code in the phase's first seconds
     * (bench/history/analyses-2026-12.md, part 6).
     */
    private final boolean profiling;
    private final double cancelRatePct;
    private final long cancelDelayNanos;
    private final RequestSource source;
    private final RequestTransport transport;
    private final Clock clock;
    private final WallClock wall;
    private final CancellationToken cancellation;
    private final ConcurrentLinkedQueue<RequestRecord> records = new ConcurrentLinkedQueue<>();
    private final InFlightTracker inFlight;
    private final LoadDriver driver;
    private final AtomicInteger issued = new AtomicInteger();
    private final AtomicInteger sessionsClaimed = new AtomicInteger();
    private final AtomicInteger sessionsNumbered = new AtomicInteger();
    private final AtomicInteger sessionsEnded = new AtomicInteger();
    private final ConversationSampler sampler;
    private final Tokenizer tokenizer;
    private final ScheduledExecutorService laterTurns; // null when every conversation has one turn
    private final java.util.concurrent.Semaphore prefill; // null without --prefill-concurrency
    private final Ramp prefillRamp; // null without --prefill-concurrency-ramp-duration
    private final ConcurrentLinkedQueue<Runnable> waitingForPrefill = new ConcurrentLinkedQueue<>();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final Recorder latencyMicros = MicrosHistograms.recorder();
    private final Object monitor = new Object();
    private volatile boolean sendingStopped;
    private final java.util.concurrent.atomic.AtomicReference<String> abortReason =
            new java.util.concurrent.atomic.AtomicReference<>();
    private volatile long phaseStartNanos;
    private final SendPort driverPort = new Port();

    public PhaseRunner(final PhaseConfig phase, final RequestSource source, final RequestTransport transport,
                       final Clock clock, final WallClock wall, final CancellationToken cancellation, final long seed) {
        this(phase, source, transport, clock, Parker.SYSTEM, wall, cancellation, seed, null,
                DatasetConfig.Sampling.SEQUENTIAL, Tokenizer.builtin());
    }

    /**
     * @param parker how the open loop waits for its next arrival (a virtual clock's parker in tests)
     * @param sink where each completed request goes, at once (a record processor); null keeps the records for the
     *             {@link PhaseResult}
     * @param sampling how sessions pick conversations (a fixed schedule always replays in order)
     * @param tokenizer counts the replies that become history in multi-turn conversations
     */
    public PhaseRunner(final PhaseConfig phase, final RequestSource source, final RequestTransport transport,
                       final Clock clock, final Parker parker, final WallClock wall,
                       final CancellationToken cancellation, final long seed,
                       final java.util.function.Consumer<RequestRecord> sink, final DatasetConfig.Sampling sampling,
                       final Tokenizer tokenizer) {
        this.sampler = new ConversationSampler(phase.type() == LoadType.FIXED_SCHEDULE
                ? DatasetConfig.Sampling.SEQUENTIAL : sampling, source.size(), seed ^ 0x5DEECE66DL);
        this.tokenizer = tokenizer;
        this.profiling = phase.kind() == PhaseKind.PROFILING;
        // the phase's own cancellation, else the run's for a profiling phase; a warmup cancels none unless it asks
        final PhaseConfig.Cancellation own = phase.cancellation();
        this.cancelRatePct = own != null ? own.ratePct() : profiling ? source.cancelRatePct() : 0;
        this.cancelDelayNanos = own != null ? (long) (own.delaySeconds() * 1e9) : source.cancelDelayNanos();
        this.prefill = phase.prefillConcurrency() == null ? null
                : new java.util.concurrent.Semaphore(phase.prefillRampSeconds() == null ? phase.prefillConcurrency() : 1);
        this.prefillRamp = phase.prefillRampSeconds() == null ? null
                : new Ramp(phase.prefillRampSeconds(), clock, parker, phase.name() + "-prefill");
        this.laterTurns = source.conversations().stream().anyMatch(c -> c.turns().size() > 1)
                ? Executors.newSingleThreadScheduledExecutor(r -> {
                    final Thread t = new Thread(r, "turns-" + phase.name());
                    t.setDaemon(true);
                    return t;
                }) : null;
        this.inFlight = new InFlightTracker(sink != null ? sink : records::add);
        this.phase = phase;
        this.source = source;
        this.transport = transport;
        this.clock = clock;
        this.wall = wall;
        this.cancellation = cancellation;
        final SendPort port = driverPort;
        if (phase.type() == LoadType.FIXED_SCHEDULE) {
            final ScheduledArrivals schedule = new ScheduledArrivals(source.conversations(), phase.schedule(),
                    source.scheduleOriginMs());
            this.driver = new OpenLoopDriver(port, schedule, schedule.rate(), phase.concurrency(), clock, parker,
                    phase.name(), ramp(phase, clock, parker), 0);
        } else if (phase.type().isRate()) {
            final double shape = phase.smoothness() == null ? 1.0 : phase.smoothness();
            this.driver = new OpenLoopDriver(port, phase.rateSeries() != null
                    ? new RateSeriesArrivals(phase.rateSeries(), phase.type(), shape, seed)
                    : new ArrivalIntervals(phase.type(), phase.rate(), shape, seed), phase.rate(),
                    phase.concurrency(), clock, parker, phase.name(), ramp(phase, clock, parker),
                    phase.rateRampSeconds() == null ? 0 : phase.rateRampSeconds());
        } else if (phase.type() == LoadType.USER_CENTRIC) {
            this.driver = new UserCentricDriver(port, phase.users(), phase.rate(), phase.concurrency(), clock,
                    phase.name());
        } else {
            this.driver = new ClosedLoopDriver(port, phase.concurrency(), ramp(phase, clock, parker));
        }
    }

    private static Ramp ramp(final PhaseConfig phase, final Clock clock, final Parker parker) {
        return phase.concurrencyRampSeconds() == null ? null
                : new Ramp(phase.concurrencyRampSeconds(), clock, parker, phase.name());
    }

    @Override
    public PhaseConfig phase() {
        return phase;
    }

    /** Starts issuing requests and returns at once. */
    @Override
    public void startSending() {
        phaseStartNanos = clock.nanoTime();
        if (prefillRamp != null) {
            prefillRamp.start(phaseStartNanos, phase.prefillConcurrency(), driverPort, () -> {
                prefill.release(); // one more request may wait for its first token
                sendWaiting();
            });
        }
        driver.start(phaseStartNanos);
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
        final long[] graceEnd = {Double.isInfinite(grace) ? Long.MAX_VALUE : graceStart() + (long) (grace * 1e9)};
        inFlight.awaitEmpty(clock, () -> {
            if (cancellation.isCancelled() && graceEnd[0] == Long.MAX_VALUE) {
                graceEnd[0] = clock.nanoTime() + (long) (CANCEL_GRACE_SECONDS * 1e9); // Ctrl-C while draining
            }
            return graceEnd[0];
        });
        final long abandoned = inFlight.abandonRest();
        driver.join();
        if (prefillRamp != null) {
            prefillRamp.join();
        }
        if (laterTurns != null) {
            laterTurns.shutdownNow(); // turns still waiting for their think time are not sent: sending has ended
        }
        final OpenLoopDriver open = driver instanceof OpenLoopDriver o ? o : null;
        return new PhaseResult(phase, new ArrayList<>(records), issued.get(), abandoned, cancellation.isCancelled(),
                open == null ? 0 : open.maxLagNanos(), open == null ? null : open.health(issued.get()));
    }

    private long graceStart() {
        if (cancellation.isCancelled()) {
            return clock.nanoTime();
        }
        return phase.durationSeconds() != null ? phaseStartNanos + (long) (phase.durationSeconds() * 1e9)
                : clock.nanoTime();
    }

    @Override
    public String abortReason() {
        return abortReason.get();
    }

    @Override
    public long startedNanos() {
        return phaseStartNanos;
    }

    @Override
    public long issuedCount() {
        return issued.get();
    }

    @Override
    public long completedCount() {
        return completed.get();
    }

    @Override
    public long errorCount() {
        return errors.get();
    }

    @Override
    public int inFlightCount() {
        return inFlight.size();
    }

    /** Latency of requests completed since the last call, in microseconds (live view only). */
    @Override
    public Histogram intervalLatencyMicros() {
        return latencyMicros.getIntervalHistogram();
    }

    private boolean durationOver() {
        return phase.durationSeconds() != null
                && clock.nanoTime() - phaseStartNanos >= (long) (phase.durationSeconds() * 1e9);
    }

    private void stopSending() {
        synchronized (monitor) {
            sendingStopped = true;
            monitor.notifyAll();
        }
    }

    /** The phase as its driver sees it: each claim starts a session. */
    private final class Port implements SendPort {
        @Override
        public int claim() {
            if (phase.sessions() != null && sessionsClaimed.get() >= phase.sessions()) {
                return -1; // every session is started; sending ends when the last one has sent its last turn
            }
            final int index = claimRequest();
            if (index >= 0) {
                sessionsClaimed.incrementAndGet();
            }
            return index;
        }

        @Override
        public boolean mustStop() {
            if (sendingStopped) {
                return true;
            }
            if (cancellation.isCancelled() || durationOver()) {
                stopSending();
                return true;
            }
            return false;
        }

        @Override
        public void send(final int index, final long intendedNanos) {
            final int number = sessionsNumbered.getAndIncrement();
            final int conversation = sampler.next();
            sendTurn(new Session(number, conversation, source.conversation(conversation)), index, intendedNanos);
        }
    }

    /** Claims the next request's index and registers it in flight, or -1 when sending has stopped. */
    private int claimRequest() {
        if (sendingStopped || driverPort.mustStop()) {
            return -1;
        }
        final int index = issued.getAndIncrement();
        if (phase.requests() != null && index >= phase.requests()) {
            issued.decrementAndGet();
            stopSending();
            return -1;
        }
        // Registered before sending can be reported complete, so a drain never misses the last request.
        inFlight.register(index);
        if (phase.requests() != null && index == phase.requests() - 1) {
            stopSending();
        }
        return index;
    }

    /**
     * Sends a turn, or with {@code --prefill-concurrency} queues it until fewer than that many sent requests are
     * still waiting for their first token (AIPerf's prefill concurrency); a first token or the end of a request frees
     * its slot and sends the next queued turn.
     */
    private void sendTurn(final Session session, final int index, final long intendedNanos) {
        if (prefill == null) {
            sendNow(session, index, intendedNanos);
            return;
        }
        waitingForPrefill.add(() -> sendNow(session, index, intendedNanos));
        sendWaiting();
    }

    private void sendWaiting() {
        while (!waitingForPrefill.isEmpty() && prefill.tryAcquire()) {
            final Runnable next = waitingForPrefill.poll();
            if (next == null) {
                prefill.release();
                return;
            }
            next.run();
        }
    }

    /** Frees a prefill slot once per request: at its first token, or at its end if none came. */
    private Runnable prefillRelease() {
        final java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        return () -> {
            if (done.compareAndSet(false, true)) {
                prefill.release();
                sendWaiting();
            }
        };
    }

    private void sendNow(final Session session, final int index, final long intendedNanos) {
        final Runnable freePrefill = prefill == null ? null : prefillRelease();
        final String requestId = InferenceClient.fastUuid();
        final int turn = session.turn();
        final int inputTokens = source.inputTokens(session.conversationIndex, turn, session.replies(),
                session.inputTokens());
        final InFlight handle = inFlight.handle(index);
        handle.cancelAfterSent(source.cancelAfterSentNanos(phase.name(), index, cancelRatePct,
                cancelDelayNanos));
        if (freePrefill != null) {
            handle.onFirstContent(freePrefill);
        }
        byte[] body = null;
        try {
            final PreparedRequest request = source.request(session.conversationIndex, session.number, turn,
                    session.replies());
            body = source.keepBodies() ? request.body() : null;
            final byte[] sent = body;
            transport.send(request, requestId, session.correlationId, handle, response -> {
                if (freePrefill != null) {
                    freePrefill.run(); // a request that ended without a first token leaves prefill too
                }
                complete(index, session, turn, inputTokens, requestId, response, intendedNanos, sent);
            });
        } catch (RuntimeException e) {
            // A request that cannot even be sent is an error record; the loop goes on (a closed loop would
            // otherwise never issue again, and a count-bounded phase would wait for it forever).
            if (freePrefill != null) {
                freePrefill.run();
            }
            complete(index, session, turn, inputTokens, requestId, ResponseData.failed(clock.nanoTime(),
                    new ErrorDetails(null, e.getClass().getSimpleName(), String.valueOf(e.getMessage()))),
                    intendedNanos, body);
        }
    }

    /**
     * The next turn of a session, after the think time, on the turns thread: the reply is counted there, off the
     * I/O threads. A session whose turn failed, or whose next turn finds sending ended, ends.
     */
    private void continueSession(final Session session, final ResponseData response) {
        try {
            laterTurns.schedule(() -> {
                session.advance(response.content(), tokenizer.count(response.content()));
                final int index = claimRequest();
                if (index < 0) {
                    endSession(session);
                    return;
                }
                sendTurn(session, index, -1);
            }, nextTurnDelayNanos(session), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            endSession(session); // the phase is over
        }
    }

    /**
     * How long a session waits before its next turn: the turn's think time, or for a user-centric user one turn gap
     * after its previous send (AIPerf's user-centric mode), at once if that has passed.
     */
    private long nextTurnDelayNanos(final Session session) {
        if (phase.type() == LoadType.USER_CENTRIC) {
            return Math.max(0, session.lastSendNanos + UserCentricDriver.turnGapNanos(phase.users(), phase.rate())
                    - clock.nanoTime());
        }
        return session.conversation.turns().get(session.turn() + 1).delayMs() * 1_000_000L;
    }

    private void endSession(final Session session) {
        final int ended = sessionsEnded.incrementAndGet();
        if (phase.sessions() != null && ended >= phase.sessions()) {
            stopSending();
        }
        driver.onSessionEnd(session.lastSendNanos);
    }

    /** When a requested cancellation fired for request {@code index}, or -1. */
    private long cancelNanos(final int index) {
        final InFlight h = inFlight.handle(index);
        return h == null ? -1 : h.requestedCancelNanos();
    }

    private void complete(final int index, final Session session, final int turn, final int inputTokens,
                          final String requestId, final ResponseData reported, final long intendedNanos,
                          final byte[] body) {
        final long seenNanos = clock.nanoTime(); // a failed request's end: when its failure reached the engine
        final ResponseData response = io.aiperf.engine.record.ErrorTypes.upstreamStyle(reported);
        RequestRecord record = null;
        final long cancelAt = cancelNanos(index);
        try {
            record = new RequestRecord(phase.name(), profiling, session.number, requestId,
                    session.correlationId, session.conversation.id(), turn, source.model(session.number),
                    wall.toEpochNanos(response.startPerfNanos()), inputTokens,
                    session.conversation.turns().get(turn).outputTokens(), response, cancelAt >= 0, intendedNanos,
                    body, cancelAt, session.conversation.turns().get(turn).imageCount(), seenNanos);
        } catch (RuntimeException e) {
            // no record can be built; the request still leaves the in-flight set below, so the loop goes on
        }
        if (!inFlight.finish(index, record)) {
            return; // reported twice, or abandoned after the grace period: its slot was already freed
        }
        completed.incrementAndGet();
        if (record == null || response.error() != null) {
            errors.incrementAndGet();
        } else if (response.hasContent()) {
            latencyMicros.recordValue(MicrosHistograms.clamp(
                    (response.lastContentNanos() - response.startPerfNanos()) / 1000));
        }
        if (phase.failedRequestThreshold() != null && abortReason.get() == null) {
            final String trip = phase.failedRequestsTrip(completed.get(), errors.get());
            if (trip != null && abortReason.compareAndSet(null, trip)) {
                cancellation.cancel(); // the cell's own token: sending stops, in-flight requests get the short grace
            }
        }
        if (phase.type() == LoadType.USER_CENTRIC) {
            // A user's next turn is paced from when this one really started, the start its record carries.
            session.lastSendNanos = response.startPerfNanos();
        }
        if (record != null && response.error() == null && session.hasNext() && !sendingStopped) {
            continueSession(session, response);
        } else {
            endSession(session);
        }
    }
}
