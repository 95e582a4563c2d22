package io.aiperf.engine.metrics;

import java.util.Arrays;

/**
 * A right-continuous step function of time: {@code value(t)} is the value set by the last step at or before
 * {@code t}, 0 before the first. Built by a sweep over interval events (upstream AIPerf 0.13's sweep line): each
 * interval adds its weight at its start and takes it away at its end. Immutable.
 *
 * @param at the distinct step times, ascending (epoch nanoseconds)
 * @param values the value from each step time on
 */
record StepFunction(long[] at, double[] values) {
    static final StepFunction EMPTY = new StepFunction(new long[0], new double[0]);

    /** Collects the {@code +weight} and {@code -weight} events of intervals; not thread-safe. */
    static final class Events {
        private long[] times;
        private double[] deltas;
        private int size;

        /** @param expected how many events will come (they fit without copying), at least 1 */
        Events(final int expected) {
            times = new long[Math.max(1, expected)];
            deltas = new double[times.length];
        }

        /** The interval {@code [start, end)} carries {@code weight} while it lasts. */
        void interval(final long start, final long end, final double weight) {
            add(start, weight);
            add(end, -weight);
        }

        void add(final long time, final double delta) {
            if (size == times.length) {
                times = Arrays.copyOf(times, size * 2 + 1);
                deltas = Arrays.copyOf(deltas, times.length);
            }
            times[size] = time;
            deltas[size++] = delta;
        }

        /**
         * The running sum of the events in time order, ends before starts at the same time (as upstream orders
         * them), one step per distinct time. Sums left within 1e-9 of the largest by cancellation are snapped to
         * 0, as upstream does, so a quantity that is never negative does not read -0.00.
         */
        StepFunction sweep() {
            if (size == 0) {
                return EMPTY;
            }
            long base = Long.MAX_VALUE;
            for (int i = 0; i < size; i++) {
                base = Math.min(base, times[i]);
            }
            final long[] keys = new long[size];
            for (int i = 0; i < size; i++) {
                keys[i] = (times[i] - base) * 2 + (deltas[i] > 0 ? 1 : 0);
            }
            final int[] order = IndexSort.byKey(keys);
            final long[] at = new long[size];
            final double[] values = new double[size];
            int steps = 0;
            double sum = 0;
            double maxAbs = 0;
            for (final int i : order) {
                sum += deltas[i];
                maxAbs = Math.max(maxAbs, Math.abs(sum));
                if (steps > 0 && at[steps - 1] == times[i]) {
                    values[steps - 1] = sum;
                } else {
                    at[steps] = times[i];
                    values[steps++] = sum;
                }
            }
            for (int s = 0; s < steps; s++) {
                if (Math.abs(values[s]) < 1e-9 * maxAbs) {
                    values[s] = 0.0;
                }
            }
            return new StepFunction(Arrays.copyOf(at, steps), Arrays.copyOf(values, steps));
        }
    }

    boolean isEmpty() {
        return at.length == 0;
    }

    /** The value at {@code t}. */
    double valueAt(final long t) {
        final int i = lastAtOrBefore(t);
        return i < 0 ? 0.0 : values[i];
    }

    /** The index of the last step at or before {@code t}, -1 when none. */
    int lastAtOrBefore(final long t) {
        int i = Arrays.binarySearch(at, t);
        if (i < 0) {
            i = -i - 2;
        }
        return i;
    }

    /** {@code this / divisor} at every time, 0 where the divisor is not positive; empty when either is. */
    StepFunction dividedBy(final StepFunction divisor) {
        if (isEmpty() || divisor.isEmpty()) {
            return EMPTY;
        }
        final long[] merged = union(at, divisor.at);
        final double[] quotient = new double[merged.length];
        for (int i = 0; i < merged.length; i++) {
            final double d = divisor.valueAt(merged[i]);
            quotient[i] = d > 0 ? valueAt(merged[i]) / d : 0.0;
        }
        return new StepFunction(merged, quotient);
    }

    /** The distinct values of two ascending arrays, ascending. */
    static long[] union(final long[] a, final long[] b) {
        final long[] out = new long[a.length + b.length];
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < a.length || j < b.length) {
            final long next = j >= b.length || i < a.length && a[i] <= b[j] ? a[i++] : b[j++];
            if (n == 0 || out[n - 1] != next) {
                out[n++] = next;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
