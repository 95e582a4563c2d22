package io.aiperf.engine.export;

/** Number formatting shared by the exporters. */
final class Numbers {
    private Numbers() {
    }

    static boolean isIntegral(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15;
    }

    /** Two decimals, integers as integers (CSV rule, AIPerf's export docs). */
    static String csv(final double v) {
        return isIntegral(v) ? Long.toString((long) v) : twoDecimals(v);
    }

    static String twoDecimals(final double v) {
        return String.format(java.util.Locale.ROOT, "%.2f", v);
    }
}
