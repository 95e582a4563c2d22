package io.aiperf.engine.gate;

import java.util.Locale;

/** Number text for gate reports. */
final class Numbers {
    private Numbers() {
    }

    static String plain(final double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e12) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.1f" : "%.3f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
