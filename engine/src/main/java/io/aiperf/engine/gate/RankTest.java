package io.aiperf.engine.gate;

import io.aiperf.engine.math.SpecialFunctions;
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

    /** Degrees of freedom at which the Student t is the normal distribution to 1e-7. */
    private static final double NORMAL_DF = 1e9;

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
        return new Result(Math.min(1.0, SpecialFunctions.studentTTwoSided(z, NORMAL_DF)), superiority);
    }
}
