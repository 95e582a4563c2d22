package io.aiperf.engine.gate;

import io.aiperf.engine.metrics.Stats;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Whether one statistic (the mean or a percentile) of two samples of requests differs by more than chance, from a
 * percentile bootstrap (src-docs/gating.md, "One trial per side"): both samples are resampled with replacement, the
 * statistic's relative change is taken each time, and the middle {@code 1 - alpha} of those changes is its confidence
 * interval. The two-sided p-value is the share of resampled changes on the far side of zero, doubled. The seed and the
 * number of resamples are fixed, so the same samples always get the same answer. Percentiles are interpolated as in
 * the exports ({@link Stats}). Stateless; O(resamples x requests) time.
 */
public final class BootstrapComparison {
    /** The seed of every comparison: the verdict is a function of the samples alone. */
    static final long SEED = 42L;
    /** Resamples per comparison, fewer only for very large samples (at least {@link #MIN_RESAMPLES}). */
    static final int MAX_RESAMPLES = 2000;
    static final int MIN_RESAMPLES = 200;
    /** Values drawn per comparison at most (resamples x both sample sizes): a million requests stay under seconds. */
    private static final long MAX_DRAWS = 100_000_000L;

    /**
     * @param baseline the statistic of the baseline's requests
     * @param candidate the statistic of the candidate's requests
     * @param changePct their relative change in percent
     * @param lowPct lower end of the {@code 1 - alpha} confidence interval of the change, in percent
     * @param highPct upper end of it
     * @param pValue two-sided, for "no change"; at least {@code 2 / (resamples + 1)}
     * @param effectSize Cohen's d over the requests (candidate minus baseline, pooled standard deviation)
     */
    public record Result(double baseline, double candidate, double changePct, double lowPct, double highPct,
                         double pValue, double effectSize, int baselineCount, int candidateCount, int resamples) {
        /** Whether the confidence interval of the change excludes zero. */
        public boolean significant(final double alpha) {
            return pValue < alpha;
        }
    }

    private BootstrapComparison() {
    }

    /** Whether a stat can be bootstrapped: the mean ({@code avg}, {@code value}) or a percentile {@code pNN}. */
    public static boolean supports(final String stat) {
        return stat.equals("avg") || stat.equals("value") || stat.matches("p\\d+");
    }

    /**
     * Compares {@code stat} of two samples (each at least 2 finite values), at confidence {@code 1 - alpha}.
     *
     * @throws IllegalArgumentException for an unsupported stat or a sample too small
     */
    public static Result compare(final double[] baseline, final double[] candidate, final String stat,
                                 final double alpha) {
        if (!supports(stat)) {
            throw new IllegalArgumentException("cannot bootstrap stat " + stat);
        }
        final double[] b = sorted(baseline);
        final double[] c = sorted(candidate);
        if (b.length < 2 || c.length < 2) {
            throw new IllegalArgumentException("need 2+ values per side, got " + b.length + " and " + c.length);
        }
        final double q = stat.startsWith("p") ? Double.parseDouble(stat.substring(1)) : Double.NaN;
        final double pb = statistic(b, ones(b.length), q);
        final double pc = statistic(c, ones(c.length), q);
        final int resamples = (int) Math.max(MIN_RESAMPLES, Math.min(MAX_RESAMPLES, MAX_DRAWS / (b.length + c.length)));
        final SplittableRandom random = new SplittableRandom(SEED);
        final int[] cb = new int[b.length];
        final int[] cc = new int[c.length];
        final double[] changes = new double[resamples];
        int kept = 0;
        int atOrBelowZero = 0;
        int atOrAboveZero = 0;
        for (int r = 0; r < resamples; r++) {
            final double rb = statistic(b, draw(random, cb), q);
            final double rc = statistic(c, draw(random, cc), q);
            atOrBelowZero += rc - rb <= 0 ? 1 : 0;
            atOrAboveZero += rc - rb >= 0 ? 1 : 0;
            if (rb != 0) {
                changes[kept++] = (rc - rb) / Math.abs(rb) * 100.0;
            }
        }
        final double[] sortedChanges = Arrays.copyOf(changes, kept);
        Arrays.sort(sortedChanges);
        final double p = Math.min(1.0, 2.0 * (Math.min(atOrBelowZero, atOrAboveZero) + 1) / (resamples + 1));
        final double change = pb == 0 ? Double.NaN : (pc - pb) / Math.abs(pb) * 100.0;
        return new Result(pb, pc, change, quantile(sortedChanges, alpha / 2), quantile(sortedChanges, 1 - alpha / 2),
                p, WelchTest.test(b, c).effectSize(), b.length, c.length, resamples);
    }

    private static double[] sorted(final double[] v) {
        final double[] out = Arrays.stream(v).filter(Double::isFinite).toArray();
        Arrays.sort(out);
        return out;
    }

    private static int[] ones(final int n) {
        final int[] out = new int[n];
        Arrays.fill(out, 1);
        return out;
    }

    /** One resample with replacement, as how often each value of the sorted sample was drawn. */
    private static int[] draw(final SplittableRandom random, final int[] counts) {
        Arrays.fill(counts, 0);
        for (int i = 0; i < counts.length; i++) {
            counts[random.nextInt(counts.length)]++;
        }
        return counts;
    }

    /**
     * The mean (q NaN) or the q-th percentile of the sample that holds {@code counts[i]} copies of {@code v[i]}
     * ({@code v} sorted): the same interpolation as {@link Stats}, without sorting the resample.
     */
    static double statistic(final double[] v, final int[] counts, final double q) {
        final int n = counts.length;
        if (Double.isNaN(q)) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += counts[i] * v[i];
            }
            return sum / n;
        }
        final double idx = q / 100.0 * (n - 1);
        final int lo = (int) Math.floor(idx);
        final int hi = Math.min(lo + 1, n - 1);
        double atLo = Double.NaN;
        double atHi = Double.NaN;
        int seen = 0;
        for (int i = 0; i < n && Double.isNaN(atHi); i++) {
            seen += counts[i];
            if (Double.isNaN(atLo) && seen > lo) {
                atLo = v[i];
            }
            if (seen > hi) {
                atHi = v[i];
            }
        }
        return atLo + (atHi - atLo) * (idx - lo);
    }

    /** The q-quantile (0..1) of sorted values by linear interpolation; NaN when there are none. */
    private static double quantile(final double[] sorted, final double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        final double idx = q * (sorted.length - 1);
        final int lo = (int) Math.floor(idx);
        final int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (idx - lo);
    }
}
