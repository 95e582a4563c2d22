package io.aiperf.engine.gate;

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
        final double p = regularizedBeta(df / (df + t * t), df / 2, 0.5);
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

    /** I_x(a, b) by Lentz's continued fraction. */
    static double regularizedBeta(final double x, final double a, final double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        final double lnFront = lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x);
        if (x > (a + 1) / (a + b + 2)) {
            return 1 - Math.exp(lnFront) * continuedFraction(1 - x, b, a) / b;
        }
        return Math.exp(lnFront) * continuedFraction(x, a, b) / a;
    }

    private static double continuedFraction(final double x, final double a, final double b) {
        final double tiny = 1e-300;
        double c = 1;
        double d = 1 - (a + b) * x / (a + 1);
        d = Math.abs(d) < tiny ? tiny : d;
        d = 1 / d;
        double f = d;
        for (int m = 1; m <= 300; m++) {
            final int m2 = 2 * m;
            double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
            d = 1 + num * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = 1 + num / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            f *= d * c;
            num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
            d = 1 + num * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = 1 + num / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            final double delta = d * c;
            f *= delta;
            if (Math.abs(delta - 1) < 1e-14) {
                break;
            }
        }
        return f;
    }

    /** Lanczos approximation. */
    static double lnGamma(final double x) {
        final double[] g = {76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155,
            0.1208650973866179e-2, -0.5395239384953e-5};
        double y = x;
        final double tmp = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
        double ser = 1.000000000190015;
        for (final double c : g) {
            ser += c / ++y;
        }
        return -tmp + Math.log(2.5066282746310005 * ser / x);
    }
}
