package io.aiperf.engine.run;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Histograms of microseconds over a fixed range (up to an hour, three significant digits), each value clamped into
 * it. A histogram that resizes itself grows when a value past its range makes it catch an index exception; in
 * compiled code that exception is a trap, so each new maximum threw away the compiled request path that recorded it
 * (the open loop's issuer, the completion of every request) and the JIT compiled it again during the phase
 * (bench/history/analyses-2026-12.md, part 6). About 190 KB per histogram.
 */
final class MicrosHistograms {
    static final long HIGHEST_MICROS = 3_600_000_000L;
    private static final int DIGITS = 3;

    private MicrosHistograms() {
    }

    static Histogram histogram() {
        return new Histogram(HIGHEST_MICROS, DIGITS);
    }

    static Recorder recorder() {
        return new Recorder(HIGHEST_MICROS, DIGITS);
    }

    /** {@code micros} within the histograms' range: below 0 is 0, past an hour is an hour. */
    static long clamp(final long micros) {
        return Math.max(0, Math.min(micros, HIGHEST_MICROS));
    }
}
