package io.aiperf.engine.search;

import io.aiperf.engine.math.SpecialFunctions;
import java.util.Arrays;

/**
 * One SLO judged on a point's requests, pooled over its trials (src-docs/capacity.md, "The boundary is a decision"):
 * whether its statistic is within the threshold with the given confidence. A percentile's one-sided bounds are order
 * statistics (distribution-free: the binomial count of requests below the true percentile); a mean's are Student's
 * t. A value farther from the threshold than the boundary band is decided on its value, as is a statistic the
 * requests cannot bound (a run-level metric such as request_throughput, a min, max or std) is
 * decided on its value; each says so.
 *
 * @param value the statistic of the point (the mean of its trials' values), NaN when missing
 * @param low the one-sided lower bound at the confidence, NaN when decided by value
 * @param high the one-sided upper bound, NaN when decided by value
 */
public record SloJudgement(Sla sla, double value, double low, double high, Verdict verdict) {
    /** MEETS and MISSES are decided at the confidence; UNSURE is neither yet. */
    public enum Verdict {
        MEETS, MISSES, UNSURE
    }

    /** Whether it was decided on the value alone, without an interval. */
    public boolean byValue() {
        return Double.isNaN(low) && Double.isNaN(high);
    }

    /**
     * @param requests the point's per-request values of the SLO's metric (empty for a run-level metric)
     * @param confidence in (0, 1), e.g. 0.95
     */
    public static SloJudgement of(final Sla sla, final double value, final double[] requests, final double confidence) {
        return of(sla, value, requests, confidence, Double.POSITIVE_INFINITY);
    }

    /**
     * @param band how near the threshold (a share of it, e.g. 0.10) a value must be to be judged at the confidence;
     *             a value farther away is decided on its value
     */
    public static SloJudgement of(final Sla sla, final double value, final double[] requests, final double confidence,
                                  final double band) {
        final double[] bounds = Math.abs(sla.margin(value)) > band ? null : bounds(sla.stat(), requests, confidence);
        if (bounds == null) {
            return new SloJudgement(sla, value, Double.NaN, Double.NaN,
                    sla.met(value) ? Verdict.MEETS : Verdict.MISSES);
        }
        final double lo = bounds[0];
        final double hi = bounds[1];
        final boolean upperLimit = sla.op().startsWith("l");
        // Meets when the whole interval is on the good side of the threshold, misses when it is wholly on the bad one.
        final Verdict v = upperLimit
                ? sla.met(hi) ? Verdict.MEETS : !sla.met(lo) ? Verdict.MISSES : Verdict.UNSURE
                : sla.met(lo) ? Verdict.MEETS : !sla.met(hi) ? Verdict.MISSES : Verdict.UNSURE;
        return new SloJudgement(sla, value, lo, hi, v);
    }

    /** {low, high} one-sided bounds at {@code confidence}, infinite where the samples are too few; null by value. */
    static double[] bounds(final String stat, final double[] requests, final double confidence) {
        final int n = requests.length;
        if (n == 0) {
            return null;
        }
        if (stat.equals("avg")) {
            if (n < 2) {
                return new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
            }
            final double mean = Arrays.stream(requests).average().orElseThrow();
            double ss = 0;
            for (final double v : requests) {
                ss += (v - mean) * (v - mean);
            }
            final double half = SpecialFunctions.studentTQuantile(confidence, n - 1) * Math.sqrt(ss / (n - 1) / n);
            return new double[] {mean - half, mean + half};
        }
        if (!stat.matches("p\\d+(\\.\\d+)?")) {
            return null;
        }
        final double q = Double.parseDouble(stat.substring(1)) / 100;
        final double[] sorted = requests.clone();
        Arrays.sort(sorted);
        // P(X_(u) >= true percentile) = P(Binomial(n, q) <= u - 1): the smallest such u with that >= confidence.
        final int u = smallest(n, k -> binomialCdf(k - 1, n, q) >= confidence);
        // P(X_(l) <= true percentile) = P(Binomial(n, q) >= l): the largest such l.
        final int l = smallest(n, k -> 1 - binomialCdf(k - 1, n, q) < confidence) - 1;
        return new double[] {l >= 1 ? sorted[l - 1] : Double.NEGATIVE_INFINITY,
            u <= n ? sorted[u - 1] : Double.POSITIVE_INFINITY};
    }

    /** The smallest k in 1..n for which the monotone test holds, or n + 1 when it holds for none. */
    private static int smallest(final int n, final java.util.function.IntPredicate test) {
        int lo = 1;
        int hi = n + 1;
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (test.test(mid)) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** P(Binomial(n, p) <= k). */
    static double binomialCdf(final int k, final int n, final double p) {
        if (k < 0) {
            return 0;
        }
        if (k >= n) {
            return 1;
        }
        return SpecialFunctions.regularizedBeta(1 - p, n - k, k + 1.0);
    }
}
