package io.aiperf.engine.time;

/** The one monotonic clock of the engine, injectable so tests can drive time. Thread-safe. */
public interface Clock {
    Clock SYSTEM = System::nanoTime;

    /** Monotonic nanoseconds, comparable only with other readings of the same clock. */
    long nanoTime();
}
