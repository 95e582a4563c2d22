package io.aiperf.engine.metrics;

/**
 * Statistics of a {@link StepFunction} over a time window, each value weighted by how long it held (upstream AIPerf
 * 0.13's time-weighted sweep-line statistics): the average is the integral over the window divided by its length,
 * the standard deviation likewise, and a percentile q is the smallest value held, with the values below it, for at
 * least q of the time. All zero when nothing was held in the window.
 */
final class TimeWeightedStats {
    private static final double[] QUANTILES = {0.50, 0.90, 0.95, 0.99};
    static final Stats ZERO = Stats.timeWeighted(0, 0, 0, 0, 0, 0, 0, 0);

    private TimeWeightedStats() {
    }

    /** Over the whole window {@code [from, to]}; values scaled by {@code scale} (1e9 for per-ns rates to per-s). */
    static Stats over(final StepFunction f, final long from, final long to, final double scale) {
        if (f.isEmpty() || to <= from) {
            return ZERO;
        }
        final Segments s = new Segments(f.at().length + 1);
        long start = from;
        double value = f.valueAt(from);
        for (int i = f.lastAtOrBefore(from) + 1; i < f.at().length && f.at()[i] < to; i++) {
            s.add(value, f.at()[i] - start);
            start = f.at()[i];
            value = f.values()[i];
        }
        s.add(value, to - start);
        return s.stats(to - from, scale);
    }

    /**
     * Over the parts of the window where {@code mask} is positive only (upstream's "active" variants: a phase's
     * rate while some request is in that phase, not diluted by the idle gaps); zero when there are none.
     */
    static Stats whileActive(final StepFunction rate, final StepFunction mask, final long from, final long to,
                             final double scale) {
        if (rate.isEmpty() || mask.isEmpty() || to <= from) {
            return ZERO;
        }
        final long[] grid = StepFunction.union(StepFunction.union(new long[] {from, to}, inside(rate, from, to)),
                inside(mask, from, to));
        final Segments s = new Segments(grid.length);
        long active = 0;
        for (int i = 0; i + 1 < grid.length; i++) {
            final long duration = grid[i + 1] - grid[i];
            if (duration > 0 && mask.valueAt(grid[i]) > 0) {
                s.add(rate.valueAt(grid[i]), duration);
                active += duration;
            }
        }
        return active > 0 ? s.stats(active, scale) : ZERO;
    }

    /** The step times strictly inside {@code (from, to)}. */
    private static long[] inside(final StepFunction f, final long from, final long to) {
        final int lo = f.lastAtOrBefore(from) + 1;
        int hi = lo;
        while (hi < f.at().length && f.at()[hi] < to) {
            hi++;
        }
        return java.util.Arrays.copyOfRange(f.at(), lo, hi);
    }

    /** The (value, duration) pieces of positive duration. */
    private static final class Segments {
        private final double[] values;
        private final long[] durations;
        private int size;

        Segments(final int capacity) {
            values = new double[capacity];
            durations = new long[capacity];
        }

        void add(final double value, final long duration) {
            if (duration > 0) {
                values[size] = value;
                durations[size++] = duration;
            }
        }

        /** @param total the duration the average and deviation are over */
        Stats stats(final long total, final double scale) {
            if (size == 0) {
                return ZERO;
            }
            double weighted = 0;
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < size; i++) {
                weighted += values[i] * durations[i];
                min = Math.min(min, values[i]);
                max = Math.max(max, values[i]);
            }
            final double avg = weighted / total;
            double squares = 0;
            for (int i = 0; i < size; i++) {
                final double d = values[i] - avg;
                squares += durations[i] * d * d;
            }
            final double std = Math.sqrt(squares / total);
            final double[] p = percentiles();
            return Stats.timeWeighted(avg * scale, min * scale, max * scale, p[0] * scale, p[1] * scale,
                    p[2] * scale, p[3] * scale, std * scale);
        }

        /** The smallest value whose cumulative share of the time, values sorted, reaches each quantile. */
        private double[] percentiles() {
            final long[] keys = new long[size];
            for (int i = 0; i < size; i++) {
                keys[i] = orderedBits(values[i]);
            }
            final int[] order = IndexSort.byKey(keys);
            long all = 0;
            for (int i = 0; i < size; i++) {
                all += durations[i];
            }
            final double[] out = new double[QUANTILES.length];
            int q = 0;
            long cumulative = 0;
            for (int k = 0; k < size && q < QUANTILES.length; k++) {
                cumulative += durations[order[k]];
                while (q < QUANTILES.length && (double) cumulative / all >= QUANTILES[q]) {
                    out[q++] = values[order[k]];
                }
            }
            while (q < QUANTILES.length) {
                out[q++] = values[order[size - 1]];
            }
            return out;
        }

        /** A long whose signed order is the double's numeric order. */
        private static long orderedBits(final double v) {
            final long bits = Double.doubleToLongBits(v == 0.0 ? 0.0 : v);
            return bits >= 0 ? bits : bits ^ Long.MAX_VALUE;
        }
    }
}
