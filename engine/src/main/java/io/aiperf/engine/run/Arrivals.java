package io.aiperf.engine.run;

/** The time from one open-loop arrival to the next, drawn in order. Not thread-safe: one issuer draws. */
interface Arrivals {
    /** Nanoseconds from the previous arrival (from the phase start, for the first). */
    double nextNanos();
}
