package io.aiperf.engine.gate;

import io.aiperf.engine.math.SpecialFunctions;

/**
 * Welch's two-sample t-test (unequal variances) with a two-sided p-value from the Student t distribution,
 * and Cohen's d as the effect size. Stateless.
 */
public final class WelchTest {
    /** @param pValue two-sided; NaN when either side has fewer than two values or no variance at all */
    public record Result(double t, double degreesOfFreedom, double pValue, double effectSize) {
    }

    private WelchTest() {
    }

    public static Result test(final double[] a, final double[] b) {
        if (a.length < 2 || b.length < 2) {
            return new Result(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        final double ma = mean(a);
        final double mb = mean(b);
        final double va = variance(a, ma);
        final double vb = variance(b, mb);
        final double sa = va / a.length;
        final double sb = vb / b.length;
        final double pooled = Math.sqrt(((a.length - 1) * va + (b.length - 1) * vb) / (a.length + b.length - 2));
        final double effect = pooled == 0 ? (ma == mb ? 0 : Double.POSITIVE_INFINITY) : (mb - ma) / pooled;
        if (sa + sb == 0) {
            return new Result(Double.NaN, Double.NaN, ma == mb ? 1.0 : 0.0, effect);
        }
        final double t = (mb - ma) / Math.sqrt(sa + sb);
        final double df = (sa + sb) * (sa + sb) / (sa * sa / (a.length - 1) + sb * sb / (b.length - 1));
        final double p = SpecialFunctions.studentTTwoSided(t, df);
        return new Result(t, df, Math.min(1.0, Math.max(0.0, p)), effect);
    }

    static double mean(final double[] v) {
        double s = 0;
        for (final double d : v) {
            s += d;
        }
        return s / v.length;
    }

    /** Sample variance (n - 1). */
    static double variance(final double[] v, final double mean) {
        double s = 0;
        for (final double d : v) {
            s += (d - mean) * (d - mean);
        }
        return s / (v.length - 1);
    }
}
