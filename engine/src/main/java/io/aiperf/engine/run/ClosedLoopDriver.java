package io.aiperf.engine.run;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A closed loop of N concurrent requests, driven from completion callbacks without a thread hand-off per request:
 * each completion adds a credit, and one thread at a time (a trampoline) turns credits into sends, so a completion
 * that arrives while sending never recurses. Thread-safe.
 */
final class ClosedLoopDriver implements LoadDriver {
    private final SendPort port;
    private final int concurrency;
    private final AtomicInteger credits = new AtomicInteger();
    private final AtomicInteger draining = new AtomicInteger();

    ClosedLoopDriver(final SendPort port, final int concurrency) {
        this.port = port;
        this.concurrency = concurrency;
    }

    @Override
    public void start(final long phaseStartNanos) {
        credits.addAndGet(concurrency);
        drain();
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
