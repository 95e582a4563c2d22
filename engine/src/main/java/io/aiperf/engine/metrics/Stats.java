package io.aiperf.engine.metrics;

import java.util.Arrays;

/**
 * Exact statistics of one distribution, computed as AIPerf does (AIPerf's metrics reference): percentiles by linear
 * interpolation between closest ranks (NumPy's default), population standard deviation.
 */
public record Stats(double avg, double min, double max, double p1, double p5, double p10, double p25, double p50,
                    double p75, double p90, double p95, double p99, double std, long count, double sum) {

    /** Percentiles reported, in order. */
    public static final double[] PERCENTILES = {1, 5, 10, 25, 50, 75, 90, 95, 99};

    /** Statistics of {@code values}, or null when there are none (empty distributions are omitted). */
    public static Stats of(final double[] values, final int length) {
        final double[] v = Arrays.copyOf(values, length);
        int n = 0;
        for (final double d : v) {
            if (Double.isFinite(d)) {
                v[n++] = d;
            }
        }
        if (n == 0) {
            return null;
        }
        Arrays.sort(v, 0, n);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += v[i];
        }
        final double mean = sum / n;
        double sq = 0;
        for (int i = 0; i < n; i++) {
            final double d = v[i] - mean;
            sq += d * d;
        }
        final double std = n > 0 ? Math.sqrt(sq / n) : 0.0;
        return new Stats(mean, v[0], v[n - 1], percentile(v, n, 1), percentile(v, n, 5), percentile(v, n, 10),
                percentile(v, n, 25), percentile(v, n, 50), percentile(v, n, 75), percentile(v, n, 90),
                percentile(v, n, 95), percentile(v, n, 99), std, n, sum);
    }

    /**
     * The statistics of a time-weighted step function (upstream 0.13's sweep-line metrics): average, extremes, the
     * p50, p90, p95 and p99 and the standard deviation only; the rest NaN and the count 0, so exports leave them out.
     */
    public static Stats timeWeighted(final double avg, final double min, final double max, final double p50,
                                     final double p90, final double p95, final double p99, final double std) {
        return new Stats(avg, min, max, Double.NaN, Double.NaN, Double.NaN, Double.NaN, p50, Double.NaN, p90, p95,
                p99, std, 0, Double.NaN);
    }

    /** Whether these are {@link #timeWeighted} statistics (a distribution always counts at least one value). */
    public boolean isTimeWeighted() {
        return count == 0;
    }

    /** {@code idx = q/100 * (n-1)}; value = v[lo] + (v[hi] - v[lo]) * (idx - lo). {@code v} sorted. */
    static double percentile(final double[] v, final int n, final double q) {
        final double idx = q / 100.0 * (n - 1);
        final int lo = (int) Math.floor(idx);
        final int hi = Math.min(lo + 1, n - 1);
        return v[lo] + (v[hi] - v[lo]) * (idx - lo);
    }

    /** The value of a stat by its export name (avg, min, max, p1..p99, std, count, sum), or NaN. */
    public double get(final String stat) {
        return switch (stat) {
            case "avg" -> avg;
            case "min" -> min;
            case "max" -> max;
            case "p1" -> p1;
            case "p5" -> p5;
            case "p10" -> p10;
            case "p25" -> p25;
            case "p50" -> p50;
            case "p75" -> p75;
            case "p90" -> p90;
            case "p95" -> p95;
            case "p99" -> p99;
            case "std" -> std;
            case "count" -> count;
            case "sum" -> sum;
            default -> Double.NaN;
        };
    }

    /** The statistics of {@link #timeWeighted} metrics, the ones the exports write. */
    public static final java.util.List<String> TIME_WEIGHTED_NAMES = java.util.List.of("avg", "min", "max", "p50",
            "p90", "p95", "p99", "std");

    public static final java.util.List<String> NAMES = java.util.List.of("avg", "min", "max", "p1", "p5", "p10",
            "p25", "p50", "p75", "p90", "p95", "p99", "std", "count", "sum");
}
