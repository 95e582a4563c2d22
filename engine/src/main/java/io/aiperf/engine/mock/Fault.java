package io.aiperf.engine.mock;

import java.util.Locale;

/**
 * One injected misbehaviour of a mock route: answer a status, wait, close the connection, send garbage, or
 * (for streams) close mid-stream. It applies to the first {@code count} calls, or to every call when
 * {@code count} is negative.
 *
 * @param delayMillis for {@link Kind#DELAY}: wait this long, then answer normally
 */
public record Fault(String route, Kind kind, int status, int count, long delayMillis) {
    public enum Kind {
        STATUS, DELAY, CLOSE, GARBAGE, TRUNCATE,
        /** Answer normally, then close the kept-alive connection without a Connection: close header. */
        CLOSE_AFTER
    }

    /**
     * Parses {@code ROUTE=status:CODE[:COUNT]}, {@code ROUTE=delay:MS[:COUNT]}, {@code ROUTE=close[:COUNT]},
     * {@code ROUTE=garbage[:COUNT]}, {@code ROUTE=truncate[:COUNT]} or {@code ROUTE=close-after[:COUNT]}.
     */
    public static Fault parse(final String spec) {
        final int eq = spec.indexOf('=');
        if (eq <= 0 || !spec.startsWith("/")) {
            throw new IllegalArgumentException("fault '" + spec + "' must look like /route=status:503:2");
        }
        final String route = spec.substring(0, eq);
        final String[] parts = spec.substring(eq + 1).split(":");
        final Kind kind;
        try {
            kind = Kind.valueOf(parts[0].toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("fault kind '" + parts[0]
                    + "' is not one of status, delay, close, garbage, truncate, close-after");
        }
        try {
            return switch (kind) {
                case STATUS -> new Fault(route, kind, Integer.parseInt(parts[1]), count(parts, 2), 0);
                case DELAY -> new Fault(route, kind, 0, count(parts, 2), Long.parseLong(parts[1]));
                default -> new Fault(route, kind, 0, count(parts, 1), 0);
            };
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("fault '" + spec + "' has a missing or bad number");
        }
    }

    private static int count(final String[] parts, final int index) {
        return parts.length > index ? Integer.parseInt(parts[index]) : -1;
    }
}
