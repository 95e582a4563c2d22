package io.aiperf.engine.convergence;

import java.util.Arrays;

/**
 * The two-sample Kolmogorov-Smirnov test: the largest gap between two empirical distribution functions, and its
 * p-value from the asymptotic Kolmogorov distribution with the usual small-sample correction of the statistic
 * (Stephens). Stateless.
 */
final class KolmogorovSmirnov {
    private KolmogorovSmirnov() {
    }

    /** The largest gap between the samples' distribution functions, in [0, 1]. */
    static double statistic(final double[] a, final double[] b) {
        final double[] x = a.clone();
        final double[] y = b.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        int i = 0;
        int j = 0;
        double d = 0;
        while (i < x.length && j < y.length) {
            final double v = Math.min(x[i], y[j]);
            while (i < x.length && x[i] <= v) {
                i++;
            }
            while (j < y.length && y[j] <= v) {
                j++;
            }
            d = Math.max(d, Math.abs((double) i / x.length - (double) j / y.length));
        }
        return d;
    }

    /** P(D >= observed) when both samples come from one distribution; 1 when a sample is empty. */
    static double pValue(final double[] a, final double[] b) {
        if (a.length == 0 || b.length == 0) {
            return 1;
        }
        final double ne = (double) a.length * b.length / (a.length + b.length);
        final double sqrt = Math.sqrt(ne);
        final double lambda = (sqrt + 0.12 + 0.11 / sqrt) * statistic(a, b);
        return kolmogorovTail(lambda);
    }

    /** Q(lambda) = 2 sum (-1)^(k-1) exp(-2 k^2 lambda^2), the Kolmogorov distribution's upper tail. */
    static double kolmogorovTail(final double lambda) {
        if (lambda < 1e-3) {
            return 1;
        }
        double sum = 0;
        for (int k = 1; k <= 100; k++) {
            final double term = Math.exp(-2.0 * k * k * lambda * lambda);
            sum += (k % 2 == 1 ? 1 : -1) * term;
            if (term < 1e-12) {
                break;
            }
        }
        return Math.max(0, Math.min(1, 2 * sum));
    }
}
