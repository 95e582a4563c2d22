package io.aiperf.engine.math;

/** The few special functions the statistics need: incomplete beta, log-gamma, Student t. Stateless. */
public final class SpecialFunctions {
    private SpecialFunctions() {
    }

    /** P(T <= t) for Student's t with {@code df} degrees of freedom. */
    public static double studentTCdf(final double t, final double df) {
        final double tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
        return t >= 0 ? 1 - tail : tail;
    }

    /** Two-sided p-value of {@code t}. */
    public static double studentTTwoSided(final double t, final double df) {
        return regularizedBeta(df / (df + t * t), df / 2, 0.5);
    }

    /** The {@code p} quantile of Student's t, by bisection (p in (0, 1)). */
    public static double studentTQuantile(final double p, final double df) {
        double lo = -1e3;
        double hi = 1e3;
        for (int i = 0; i < 200; i++) {
            final double mid = (lo + hi) / 2;
            if (studentTCdf(mid, df) < p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /** I_x(a, b) by Lentz's continued fraction. */
    public static double regularizedBeta(final double x, final double a, final double b) {
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
    public static double lnGamma(final double x) {
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
