package io.aiperf.engine.time;

/** Sleeps; injectable so retry and pacing logic can be tested without waiting. */
public interface Sleeper {
    Sleeper SYSTEM = nanos -> {
        if (nanos > 0) {
            Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
        }
    };

    void sleepNanos(long nanos) throws InterruptedException;
}
