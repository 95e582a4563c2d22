package io.aiperf.engine.telemetry;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Percentiles of a histogram estimated from its buckets, as Prometheus' {@code histogram_quantile} does: the rank's
 * bucket is found and the value interpolated linearly between its bounds (the first bucket starts at 0; a rank in
 * the {@code +Inf} bucket reads the highest finite bound). Upstream AIPerf 0.13 refines this with the histogram's
 * sum; the keys are the same, the values can differ (src-docs/migrating.md). Stateless.
 */
final class BucketPercentiles {
    private static final int[] PERCENTILES = {1, 5, 10, 25, 50, 75, 90, 95, 99};

    private BucketPercentiles() {
    }

    /**
     * @param cumulative observations at or below each bound, sorted by bound
     * @return {@code p1_estimate} .. {@code p99_estimate}
     */
    static Map<String, Double> estimate(final Map<String, Long> cumulative, final double sum, final long count) {
        final Map<String, Double> out = new LinkedHashMap<>();
        for (final int p : PERCENTILES) {
            out.put("p" + p + "_estimate", sum == 0 ? 0.0 : quantile(cumulative, p / 100.0 * count));
        }
        return out;
    }

    private static double quantile(final Map<String, Long> cumulative, final double rank) {
        double lower = 0;
        long below = 0;
        for (final Map.Entry<String, Long> b : cumulative.entrySet()) {
            final double upper = bound(b.getKey());
            if (b.getValue() >= rank) {
                if (Double.isInfinite(upper)) {
                    return lower;
                }
                final long in = b.getValue() - below;
                return in == 0 ? upper : lower + (upper - lower) * (rank - below) / in;
            }
            lower = upper;
            below = b.getValue();
        }
        return lower;
    }

    /** A bucket's upper bound ({@code le}); {@code +Inf} and anything unreadable sort last. */
    static double bound(final String le) {
        try {
            return Double.parseDouble(le.replace("Inf", "Infinity"));
        } catch (NumberFormatException e) {
            return Double.POSITIVE_INFINITY;
        }
    }
}
