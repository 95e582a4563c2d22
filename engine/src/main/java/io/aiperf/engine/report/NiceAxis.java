package io.aiperf.engine.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The ticks of one chart axis, from the nice-number rule: a step of 1, 2 or 5 times a power of ten, about five steps
 * from a multiple of the step at or below the lowest value to one at or above the highest. Each tick's label has as
 * many decimals as the step needs, so no two ticks read the same (0.995, 1.000, 1.005, never {@code 1 1 1}).
 * Immutable.
 *
 * @param lo the first tick
 * @param hi the last tick
 * @param step the distance between ticks
 */
record NiceAxis(double lo, double hi, double step) {
    /** Ticks that hold {@code min} to {@code max}. */
    static NiceAxis of(final double min, final double max) {
        final double span = max > min ? max - min : Math.max(1, Math.abs(max));
        final double step = niceStep(span / 5);
        final double lo = Math.floor(min / step + 1e-9) * step;
        double hi = Math.ceil(max / step - 1e-9) * step;
        if (hi <= lo) {
            hi = lo + step;
        }
        return new NiceAxis(lo, hi, step);
    }

    /** The smallest of 1, 2, 5 or 10 times a power of ten at or above {@code raw}. */
    static double niceStep(final double raw) {
        final double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        final double norm = raw / mag;
        return (norm <= 1 + 1e-9 ? 1 : norm <= 2 + 1e-9 ? 2 : norm <= 5 + 1e-9 ? 5 : 10) * mag;
    }

    /** The tick values, {@code lo} to {@code hi}. */
    List<Double> ticks() {
        final List<Double> out = new ArrayList<>();
        for (int i = 0; lo + i * step <= hi + step * 1e-6; i++) {
            out.add(lo + i * step);
        }
        return out;
    }

    /** A tick's label: the decimals the step needs and no more; thousands grouped. */
    String label(final double tick) {
        final int decimals = Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9));
        final double rounded = Math.abs(tick) < step * 1e-6 ? 0 : tick; // no "-0"
        return String.format(Locale.ROOT, "%,." + decimals + "f", rounded);
    }
}
