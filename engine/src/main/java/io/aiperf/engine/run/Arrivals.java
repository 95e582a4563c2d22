package io.aiperf.engine.run;

/** The time from one open-loop arrival to the next, drawn in order. Not thread-safe: one issuer draws. */
interface Arrivals {
    /** Nanoseconds from the previous arrival (from the phase start, for the first). */
    double nextNanos();

    /** As {@link #nextNanos()}, for an arrival after the one due {@code offsetNanos} into the phase. */
    default double nextNanos(final double offsetNanos) {
        return nextNanos();
    }

    /** The rate asked for between two offsets into the phase, or NaN when it is the phase's fixed rate. */
    default double meanRate(final double fromOffsetNanos, final double toOffsetNanos) {
        return Double.NaN;
    }
}
