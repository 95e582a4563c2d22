package io.aiperf.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.client.RequestTransport;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.time.CancellationToken;
import io.aiperf.engine.time.Clock;
import io.aiperf.engine.time.WallClock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The phase runner against transports that misbehave, without HTTP: it always ends, and every request is a record. */
class PhaseRunnerTest {
    private static PhaseRunner runner(final String phaseYaml, final RequestTransport transport) {
        final PhaseFixture f = PhaseFixture.of(phaseYaml);
        return new PhaseRunner(f.config().phases().get(0), f.source(), transport, Clock.SYSTEM,
                new WallClock(Clock.SYSTEM), new CancellationToken(), 1L);
    }

    private static ResponseData ok() {
        final long now = System.nanoTime();
        return new ResponseData(now - 1000, now - 500, new long[] {now}, 1, 0, "hi", null, null, null, 0,
                io.aiperf.engine.record.TransportTimes.NONE);
    }

    /** Runs the phase on another thread, so a hang fails the test instead of blocking it. */
    private static PhaseResult runBounded(final PhaseRunner runner) throws Exception {
        final CompletableFuture<PhaseResult> done = CompletableFuture.supplyAsync(() -> {
            try {
                runner.startSending();
                return runner.awaitDrain();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        return done.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aTransportThatThrowsOnSendGivesErrorRecordsAndTheClosedLoopGoesOn() throws Exception {
        final AtomicInteger calls = new AtomicInteger();
        final RequestTransport flaky = (request, id, correlation, handle, done) -> {
            if (calls.incrementAndGet() % 3 == 0) {
                throw new IllegalStateException("transport refused the request");
            }
            done.accept(ok());
        };
        final PhaseResult result = runBounded(runner("{name: profiling, concurrency: 2, requests: 12}", flaky));
        assertThat(result.records()).hasSize(12);
        assertThat(result.records().stream().filter(r -> r.response().error() != null).map(RequestRecord::response)
                .map(r -> r.error().message())).hasSize(4).allMatch(m -> m.equals("transport refused the request"));
    }

    @Test
    void aTransportThatThrowsOnEveryOpenLoopSendStillEnds() throws Exception {
        final RequestTransport broken = (request, id, correlation, handle, done) -> {
            throw new IllegalStateException("down");
        };
        final PhaseResult result = runBounded(runner("{name: profiling, type: constant, rate: 200, requests: 10}", broken));
        assertThat(result.records()).hasSize(10).allMatch(r -> r.response().error() != null);
        assertThat(result.openLoop().sent()).isEqualTo(10);
    }
}
