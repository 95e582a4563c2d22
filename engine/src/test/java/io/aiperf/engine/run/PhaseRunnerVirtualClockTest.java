package io.aiperf.engine.run;

import io.aiperf.engine.config.DatasetConfig;
import io.aiperf.engine.dataset.Tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.aiperf.engine.client.InFlight;
import io.aiperf.engine.client.RequestTransport;
import io.aiperf.engine.record.OpenLoopHealth;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;
import io.aiperf.engine.time.CancellationToken;
import io.aiperf.engine.time.Clock;
import io.aiperf.engine.time.Parker;
import io.aiperf.engine.time.WallClock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The phase runner on a virtual clock: time moves only when the open loop parks or a transport stalls, so arrival
 * accuracy, catch-up, the ceiling, grace and drain are checked exactly, however busy the machine is.
 */
class PhaseRunnerVirtualClockTest {
    /** A clock that advances only when someone parks on it or a test moves it. */
    static final class VirtualTime implements Clock, Parker {
        private final AtomicLong now = new AtomicLong(1_000_000_000L);

        @Override
        public long nanoTime() {
            return now.get();
        }

        @Override
        public void parkNanos(final long nanos) {
            now.addAndGet(Math.max(1, nanos));
        }

        /** The longest wait the issuer chose to spin through instead of parking. */
        final AtomicLong longestSpin = new AtomicLong();

        @Override
        public void spin(final long remainingNanos) {
            longestSpin.accumulateAndGet(remainingNanos, Math::max);
            now.addAndGet(Math.max(1, remainingNanos));
        }

        void advance(final long nanos) {
            now.addAndGet(nanos);
        }
    }

    private final VirtualTime time = new VirtualTime();

    private final CancellationToken cancellation = new CancellationToken();

    private PhaseRunner runner(final String phaseYaml, final RequestTransport transport) {
        final PhaseFixture f = PhaseFixture.of(phaseYaml);
        return new PhaseRunner(f.config().phases().get(0), f.source(), transport, time, time, new WallClock(time),
                cancellation, 7L, null, DatasetConfig.Sampling.SEQUENTIAL, Tokenizer.builtin());
    }

    private ResponseData ok() {
        final long now = time.nanoTime();
        return new ResponseData(now, now, new long[] {now}, 1, 0, "hi", null, null, null, 0, TransportTimes.NONE);
    }

    /** Answers at once, on the sending thread. */
    private final RequestTransport instant = (request, id, correlation, handle, done) -> done.accept(ok());

    /** Runs the phase on another thread, so a hang fails the test instead of blocking it. */
    private static CompletableFuture<PhaseResult> start(final PhaseRunner runner) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                runner.startSending();
                return runner.awaitDrain();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static PhaseResult runBounded(final PhaseRunner runner) throws Exception {
        return start(runner).get(60, TimeUnit.SECONDS);
    }

    @Test
    void poissonAtTwentyThousandPerSecondForTenSecondsHitsTheTargetCount() throws Exception {
        final PhaseResult result = runBounded(runner("{name: profiling, type: poisson, rate: 20000, duration: 10}", instant));
        assertThat((double) result.sent()).isCloseTo(200_000, within(1_000.0)); // 0.5%
        final OpenLoopHealth health = result.openLoop();
        assertThat(health.late()).isZero();
        assertThat(health.missed()).isZero();
        assertThat(health.scheduled()).isEqualTo(result.sent());
        assertThat(health.achievedRate()).isCloseTo(20_000, within(100.0));
        // on a virtual clock every batch is handed over on time: what was sent is the schedule that was drawn, its
        // first and last sends up to a batch's 200 us late (of 10 s)
        assertThat(health.achievedRate()).isCloseTo(health.scheduleRate(), within(1.0));
        assertThat(health.lagP99Millis()).isLessThanOrEqualTo(OpenLoopDriver.BATCH_NANOS / 1e6 + 0.001);
        assertThat(health.clientLimited()).isFalse();
        assertThat(health.warning()).isNull();
        assertThat(result.records()).hasSize((int) result.sent());
    }

    /**
     * At 20,000 per second the due arrivals go out in batches, each handed over 200 us after its first arrival was
     * due (one wake-up of the event loop per batch); at 1,000 per second each goes alone, when due.
     */
    @Test
    void fastArrivalsAreHandedOverInBatchesAndSlowOnesAlone() throws Exception {
        final java.util.List<Long> sendTimes = new java.util.concurrent.CopyOnWriteArrayList<>();
        final RequestTransport stamping = (request, id, correlation, handle, done) -> {
            sendTimes.add(time.nanoTime());
            done.accept(ok());
        };
        final PhaseResult fast = runBounded(runner("{name: profiling, type: constant, rate: 20000, duration: 1}",
                stamping));
        final long batches = sendTimes.stream().distinct().count();
        assertThat(fast.sent()).isGreaterThan(19_000);
        assertThat(batches).isBetween(fast.sent() / 5, fast.sent() / 4 + 1); // 4 arrivals due in each 200 us
        assertThat(fast.openLoop().lagP99Millis()).isLessThanOrEqualTo(OpenLoopDriver.BATCH_NANOS / 1e6 + 0.001);
        assertThat(fast.openLoop().lagP50Millis()).isPositive();

        sendTimes.clear();
        final PhaseResult slow = runBounded(runner("{name: profiling, type: constant, rate: 1000, duration: 1}",
                stamping));
        assertThat(sendTimes.stream().distinct().count()).isEqualTo(slow.sent());
        assertThat(slow.openLoop().lagP99Millis()).isZero();
    }

    @Test
    void theIssuerSpinsAtMostAQuarterOfTheIntervalAndParksTheRest() throws Exception {
        // 20,000 per second: 50 us apart; a 50 us spin would keep a core busy, so 12.5 us at most.
        runBounded(runner("{name: profiling, type: constant, rate: 20000, duration: 1}", instant));
        assertThat(time.longestSpin.get()).isPositive().isLessThanOrEqualTo(12_500L);
        // 1,000 per second: 1 ms apart; the full 50 us.
        time.longestSpin.set(0);
        runBounded(runner("{name: profiling, type: constant, rate: 1000, duration: 1}", instant));
        assertThat(time.longestSpin.get()).isGreaterThan(12_500L).isLessThanOrEqualTo(OpenLoopDriver.SPIN_NANOS);
    }

    @Test
    void aRateRampRisesInTenthsOfASecondToTheTarget() throws Exception {
        final PhaseResult result = runBounded(runner(
                "{name: profiling, type: constant, rate: 1000, duration: 4, rate_ramp_duration: 2}", instant));
        // Step k of the 20 tenths runs at k/20 of the rate: 5k arrivals each, 1,050 in all, then 2,000 at full rate.
        assertThat(result.sent()).isBetween(3_040L, 3_060L);
        assertThat(result.openLoop().missed()).isZero();
        assertThat(result.openLoop().scheduled()).isEqualTo(result.sent());
    }

    @Test
    void constantAndGammaArrivalsAreExactOnAVirtualClock() throws Exception {
        final PhaseResult constant = runBounded(runner("{name: profiling, type: constant, rate: 5000, duration: 4}", instant));
        assertThat(constant.sent()).isBetween(19_999L, 20_001L);
        assertThat(constant.openLoop().lagMaxMillis()).isZero();
        final PhaseResult gamma = runBounded(runner("{name: profiling, type: gamma, smoothness: 4, rate: 5000, duration: 4}",
                instant));
        assertThat((double) gamma.sent()).isCloseTo(20_000, within(100.0));
    }

    @Test
    void aStalledTransportProducesCountedMissedArrivalsAndALowerAchievedRate() throws Exception {
        final AtomicInteger calls = new AtomicInteger();
        final RequestTransport stalls = (request, id, correlation, handle, done) -> {
            if (calls.incrementAndGet() % 200 == 0) {
                time.advance(100_000_000L); // the send blocked the issuer for 100 ms
            }
            done.accept(ok());
        };
        final PhaseResult result = runBounded(runner("{name: profiling, type: constant, rate: 1000, duration: 4}", stalls));
        final OpenLoopHealth health = result.openLoop();
        // Each stall swallows about 100 arrivals: more than the 10 ms catch-up, so the schedule re-anchors and
        // every arrival it swallowed is counted as missed.
        final long stallsSeen = calls.get() / 200;
        assertThat(stallsSeen).isPositive();
        assertThat(health.missed()).isBetween(stallsSeen * 95, stallsSeen * 100);
        assertThat(health.scheduled()).isEqualTo(result.sent() + health.missed());
        assertThat((double) health.scheduled()).isCloseTo(4_000, within(20.0));
        assertThat(health.achievedRate()).isLessThan(1000 * 0.8);
        // the schedule re-anchored after each stall, and the arrivals it swallowed still count as drawn
        assertThat(health.scheduleRate()).isCloseTo(1000, within(20.0));
        assertThat(health.clientLimited()).isTrue();
        assertThat(health.warning()).startsWith("the client limited the run: ").contains("skipped after stalls");
    }

    @Test
    void aStallShorterThanTheCatchUpBoundMakesLateSendsNotMissedOnes() throws Exception {
        final AtomicInteger calls = new AtomicInteger();
        final RequestTransport stalls = (request, id, correlation, handle, done) -> {
            if (calls.incrementAndGet() == 100) {
                time.advance(9_000_000L); // 9 ms: within the 10 ms catch-up, so the next sends are behind
            }
            done.accept(ok());
        };
        final PhaseResult result = runBounded(runner("{name: profiling, type: constant, rate: 1000, requests: 300}", stalls));
        assertThat(result.sent()).isEqualTo(300);
        assertThat(result.openLoop().missed()).isZero();
        assertThat(result.openLoop().lagMaxMillis()).isCloseTo(9.0, within(1.1));
        assertThat(result.openLoop().late()).isZero(); // behind, but never more than the bound
    }

    @Test
    void theCeilingHoldsArrivalsAndCountsEveryWait() throws Exception {
        final List<Consumer<ResponseData>> pending = new CopyOnWriteArrayList<>();
        final RequestTransport slow = (request, id, correlation, handle, done) -> pending.add(done);
        final PhaseRunner runner = runner("{name: profiling, type: constant, rate: 1000, concurrency: 2, requests: 20}", slow);
        final CompletableFuture<PhaseResult> run = start(runner);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!run.isDone() && System.nanoTime() < deadline) {
            if (pending.size() == 2) { // both slots taken: the server answers them 30 ms later
                time.advance(30_000_000L);
                final List<Consumer<ResponseData>> answer = List.copyOf(pending);
                pending.clear();
                answer.forEach(d -> d.accept(ok()));
            }
            Thread.onSpinWait();
        }
        final PhaseResult result = run.get(1, TimeUnit.SECONDS);
        assertThat(result.sent()).isEqualTo(20);
        assertThat(result.records()).hasSize(20);
        assertThat(result.openLoop().ceilingWaits()).isPositive();
        assertThat(result.openLoop().late()).isPositive();
        assertThat(result.openLoop().warning()).contains("--concurrency ceiling");
    }

    @Test
    void aThrowingTransportEndsThePhaseWithErrorRecordsAndNoHang() throws Exception {
        final RequestTransport broken = (request, id, correlation, handle, done) -> {
            throw new IllegalStateException("down");
        };
        final PhaseResult result = runBounded(runner("{name: profiling, type: poisson, rate: 500, requests: 50}", broken));
        assertThat(result.records()).hasSize(50).allMatch(r -> r.response().error() != null);
    }

    @Test
    void aTransportThatReportsTwiceGivesOneRecordAndFreesOneSlot() throws Exception {
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger maxInFlight = new AtomicInteger();
        final RequestTransport twice = (request, id, correlation, handle, done) -> {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            inFlight.decrementAndGet();
            done.accept(ok());
            done.accept(ok());
        };
        final PhaseResult result = runBounded(runner("{name: profiling, concurrency: 1, requests: 30}", twice));
        assertThat(result.records()).hasSize(30);
        assertThat(maxInFlight.get()).isEqualTo(1);
    }

    @Test
    void aCancelStopsTheOpenLoopAndTheRequestsOnTheWireAreAbandonedAfterTheCancelGrace() throws Exception {
        final List<InFlight> stuck = new CopyOnWriteArrayList<>();
        final AtomicInteger calls = new AtomicInteger();
        final RequestTransport halfStuck = (request, id, correlation, handle, done) -> {
            if (calls.incrementAndGet() == 500) {
                cancellation.cancel(); // Ctrl-C half-way through an hour-long phase
            }
            if (calls.get() % 2 == 0) {
                stuck.add(handle); // never answers
            } else {
                done.accept(ok());
            }
        };
        final PhaseRunner runner = runner("{name: profiling, type: poisson, rate: 1000, duration: 3600, "
                + "grace_period: 1}", halfStuck);
        final CompletableFuture<PhaseResult> run = start(runner);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!run.isDone() && System.nanoTime() < deadline) {
            time.advance(100_000_000L); // time passes while the drain waits for the stuck half
            Thread.sleep(1);
        }
        final PhaseResult result = run.get(1, TimeUnit.SECONDS);
        assertThat(result.cancelled()).isTrue();
        assertThat(result.sent()).isEqualTo(500);
        assertThat(result.records()).hasSize(250);
        assertThat(result.abandoned()).isEqualTo(250);
        assertThat(stuck).allMatch(InFlight::isCancelled);
    }

    @Test
    void graceZeroAbandonsWhatIsInFlightAndCancelsIt() throws Exception {
        final List<InFlight> handles = new CopyOnWriteArrayList<>();
        final RequestTransport never = (request, id, correlation, handle, done) -> handles.add(handle);
        final PhaseRunner runner = runner("{name: profiling, concurrency: 3, duration: 1, grace_period: 0}", never);
        final CompletableFuture<PhaseResult> run = start(runner);
        while (handles.size() < 3 && !run.isDone()) {
            Thread.onSpinWait(); // the three sends happen on the starting thread at once
        }
        time.advance(2_000_000_000L); // the duration is over
        final PhaseResult result = run.get(30, TimeUnit.SECONDS);
        assertThat(result.abandoned()).isEqualTo(3);
        assertThat(result.records()).isEmpty();
        assertThat(handles).allMatch(InFlight::isCancelled);
    }
}
