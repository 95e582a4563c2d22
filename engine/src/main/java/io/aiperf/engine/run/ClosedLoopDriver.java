package io.aiperf.engine.run;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A closed loop of N concurrent requests, driven from completion callbacks without a thread hand-off per request:
 * each completion adds a credit, and one thread at a time (a trampoline) turns credits into sends, so a completion
 * that arrives while sending never recurses. With a ramp, the loop starts at 1 and a ramp thread adds the other
 * N - 1 credits evenly over the ramp (AIPerf's {@code --concurrency-ramp-duration}). Thread-safe.
 */
final class ClosedLoopDriver implements LoadDriver {
    private final SendPort port;
    private final int concurrency;
    private final Ramp ramp;
    private final AtomicInteger credits = new AtomicInteger();
    private final AtomicInteger draining = new AtomicInteger();

    ClosedLoopDriver(final SendPort port, final int concurrency) {
        this(port, concurrency, null);
    }

    /** @param ramp how the concurrency rises from 1, or null to start at full width */
    ClosedLoopDriver(final SendPort port, final int concurrency, final Ramp ramp) {
        this.port = port;
        this.concurrency = concurrency;
        this.ramp = ramp;
    }

    @Override
    public void start(final long phaseStartNanos) {
        if (ramp == null || concurrency == 1) {
            credits.addAndGet(concurrency);
            drain();
            return;
        }
        credits.incrementAndGet();
        drain();
        ramp.start(phaseStartNanos, concurrency, port, () -> {
            credits.incrementAndGet();
            drain();
        });
    }

    @Override
    public void join() throws InterruptedException {
        if (ramp != null) {
            ramp.join();
        }
    }

    @Override
    public void onComplete() {
        credits.incrementAndGet();
        drain();
    }

    private void drain() {
        if (draining.getAndIncrement() != 0) {
            return; // the thread already draining will see the new credit
        }
        do {
            while (credits.get() > 0) {
                credits.decrementAndGet();
                final int index = port.claim();
                if (index < 0) {
                    credits.set(0);
                    break;
                }
                port.send(index, -1);
            }
        } while (draining.decrementAndGet() != 0);
    }
}
