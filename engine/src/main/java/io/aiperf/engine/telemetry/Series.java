package io.aiperf.engine.telemetry;

import java.util.Arrays;
import java.util.Map;

/**
 * One series of a scraped metric over the profiling window: first and last value, and for gauges every sample (up
 * to {@value #MAX_SAMPLES}; beyond that, min, max and mean stay exact and the percentiles use the first ones).
 * Guarded by the collector's lock.
 */
final class Series {
    static final int MAX_SAMPLES = 100_000;

    final String family;
    final String name;
    final Map<String, String> labels;
    final String type;
    private double first = Double.NaN;
    private double last = Double.NaN;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;
    private double sum;
    private int count;
    private long firstNanos;
    private long lastNanos;
    private double[] samples = new double[16];
    private int kept;

    Series(final String family, final String name, final Map<String, String> labels, final String type) {
        this.family = family;
        this.name = name;
        this.labels = labels;
        this.type = type;
    }

    /** @param nanos when the scrape that read it answered ({@link System#nanoTime()}) */
    void add(final double v, final long nanos) {
        if (Double.isNaN(v)) {
            return;
        }
        if (count == 0) {
            first = v;
            firstNanos = nanos;
        }
        last = v;
        lastNanos = nanos;
        count++;
        min = Math.min(min, v);
        max = Math.max(max, v);
        sum += v;
        if (gauge() && kept < MAX_SAMPLES) {
            if (kept == samples.length) {
                samples = Arrays.copyOf(samples, kept * 2);
            }
            samples[kept++] = v;
        }
    }

    /** A value that goes up and down, summarised by its statistics; counters and histograms by their change. */
    boolean gauge() {
        return type.equals("gauge") || type.equals("untyped") && !name.endsWith("_total");
    }

    double first() {
        return first;
    }

    double last() {
        return last;
    }

    double delta() {
        return last - first;
    }

    /** Seconds between the first and the last sample (0 with one sample). */
    double seconds() {
        return count < 2 ? 0 : (lastNanos - firstNanos) / 1e9;
    }

    int count() {
        return count;
    }

    double min() {
        return min;
    }

    double max() {
        return max;
    }

    double mean() {
        return count == 0 ? Double.NaN : sum / count;
    }

    /** Sample standard deviation of the kept samples (n - 1), 0 for one sample. */
    double std() {
        if (kept < 2) {
            return 0;
        }
        double mean = 0;
        for (int i = 0; i < kept; i++) {
            mean += samples[i];
        }
        mean /= kept;
        double squares = 0;
        for (int i = 0; i < kept; i++) {
            squares += (samples[i] - mean) * (samples[i] - mean);
        }
        return Math.sqrt(squares / (kept - 1));
    }

    /** Linear-interpolation percentile of the kept samples, as the engine's other statistics. */
    double percentile(final double q) {
        if (kept == 0) {
            return Double.NaN;
        }
        final double[] sorted = Arrays.copyOf(samples, kept);
        Arrays.sort(sorted);
        final double idx = q / 100 * (kept - 1);
        final int lo = (int) Math.floor(idx);
        final int hi = Math.min(lo + 1, kept - 1);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (idx - lo);
    }
}
