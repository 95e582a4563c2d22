package io.aiperf.engine.gate;

import java.util.Arrays;

/**
 * The Mann-Whitney rank test of two samples of requests: whether the candidate's requests tend to be larger or
 * smaller than the baseline's, whatever the shape of their distributions. Two-sided p-value from the normal
 * approximation with the tie correction and a continuity correction; good from about ten values per side.
 * Stateless.
 */
final class RankTest {
    /**
     * @param pValue two-sided, for "neither side tends to be larger"
     * @param superiority the probability that a candidate request is larger than a baseline one (ties count half)
     */
    record Result(double pValue, double superiority) {
    }

    private RankTest() {
    }

    static Result test(final double[] baseline, final double[] candidate) {
        final int na = baseline.length;
        final int nb = candidate.length;
        final int n = na + nb;
        final double[] all = new double[n];
        final boolean[] fromCandidate = new boolean[n];
        final Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            all[i] = i < na ? baseline[i] : candidate[i - na];
            fromCandidate[i] = i >= na;
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Double.compare(all[x], all[y]));
        double candidateRanks = 0;
        double ties = 0;
        for (int i = 0; i < n; ) {
            int j = i;
            while (j + 1 < n && all[order[j + 1]] == all[order[i]]) {
                j++;
            }
            final double rank = (i + j) / 2.0 + 1; // the mean of ranks i+1 .. j+1
            for (int k = i; k <= j; k++) {
                candidateRanks += fromCandidate[order[k]] ? rank : 0;
            }
            final double t = j - i + 1;
            ties += t * t * t - t;
            i = j + 1;
        }
        final double u = candidateRanks - nb * (nb + 1) / 2.0;
        final double mean = (double) na * nb / 2;
        final double variance = (double) na * nb / 12 * ((n + 1) - ties / ((double) n * (n - 1)));
        final double superiority = u / ((double) na * nb);
        if (!(variance > 0)) {
            return new Result(1.0, superiority);
        }
        final double z = Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
        return new Result(Math.min(1.0, erfc(z / Math.sqrt(2))), superiority);
    }

    /** The complementary error function, to a relative error below 1.2e-7 (Chebyshev fit, Numerical Recipes). */
    static double erfc(final double x) {
        final double z = Math.abs(x);
        final double t = 1 / (1 + 0.5 * z);
        final double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }
}
