package io.aiperf.engine.config;

import java.util.Locale;

/** Durations as the YAML and the flags write them: a number of seconds, or 250ms, 30s, 5m, 1h, inf. */
public final class Durations {
    private Durations() {
    }

    /**
     * @return the duration in seconds (infinity for "inf")
     * @throws IllegalArgumentException when {@code text} is none of those forms
     */
    public static double seconds(final String text) {
        final String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.equals("inf")) {
            return Double.POSITIVE_INFINITY;
        }
        try {
            if (s.endsWith("ms")) {
                return Double.parseDouble(s.substring(0, s.length() - 2)) / 1000.0;
            }
            final double factor = switch (s.isEmpty() ? ' ' : s.charAt(s.length() - 1)) {
                case 's' -> 1;
                case 'm' -> 60;
                case 'h' -> 3600;
                default -> 0;
            };
            return factor > 0 ? Double.parseDouble(s.substring(0, s.length() - 1)) * factor : Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a duration such as 30, 30s, 5m or 1h, got '" + text + "'");
        }
    }
}
