package io.aiperf.engine.mock;

import java.util.Locale;

/**
 * One injected misbehaviour of a mock route (src-docs/mock-server.md). It applies to the first {@code count}
 * calls, or to every call when {@code count} is negative.
 *
 * @param amount the fault's number: milliseconds for {@link Kind#DELAY} and {@link Kind#STALL}, bytes for
 *               {@link Kind#HUGE_EVENT}
 */
public record Fault(String route, Kind kind, int status, int count, long amount) {
    public enum Kind {
        /** Answer this HTTP status (429 adds {@code Retry-After: 1}). */
        STATUS,
        /** Wait before the first byte, then answer normally. */
        DELAY,
        /** Stream the first token, then stall this long before the rest. */
        STALL,
        /** Close the connection without answering. */
        CLOSE,
        /** Answer 200 with a body that is not what the endpoint promises. */
        GARBAGE,
        /** Close a stream midway (a reset mid-stream). */
        TRUNCATE,
        /** Answer normally, then close the kept-alive connection at once, without a Connection: close header. */
        CLOSE_AFTER,
        /**
         * Answer normally, then send FIN at once but keep reading: a request written after it is taken and never
         * answered (llama.cpp's llama-server after a stream).
         */
        HALF_CLOSE,
        /** Answer normally, read nothing more, and close the connection this many milliseconds later. */
        CLOSE_LATER,
        /**
         * Read the request, then close the connection without answering, for this percentage of calls drawn at
         * random (each counted in {@code dropped_connections}).
         */
        DROP,
        /** A stream whose UTF-8 is split across chunks, with one invalid byte sequence. */
        BAD_UTF8,
        /** After the first token, one SSE event of this many bytes. */
        HUGE_EVENT,
        /** A 200 stream that never ends (bounded only by the client's --max-response-bytes). */
        ENDLESS,
        /** A stream that ends without {@code data: [DONE]}. */
        NO_DONE,
        /** A 200 stream that sends an {@code event: error} with an error object after the first token. */
        ERROR_EVENT,
        /** Accept the request and never answer. */
        NEVER,
        /** Answer 401 with the request's Authorization header echoed in the error body, as careless servers do. */
        ECHO_AUTH
    }

    private static final String KINDS = "status:CODE, delay:MS, stall:MS, close, drop:PERCENT, garbage, truncate, close-after, half-close, "
            + "close-later:MS, "
            + "bad-utf8, huge-event:BYTES, endless, no-done, error-event, never, echo-auth";

    /**
     * Parses {@code ROUTE=KIND[:NUMBER][:COUNT]}, for example {@code /v1/chat/completions=status:503:2}.
     *
     * @throws IllegalArgumentException naming what is wrong, for an unknown kind or an out-of-range number
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
            throw new IllegalArgumentException("fault kind '" + parts[0] + "' is not one of " + KINDS);
        }
        try {
            return switch (kind) {
                case STATUS -> new Fault(route, kind, ranged(spec, parts[1], 100, 599, "status"), count(spec, parts, 2), 0);
                case DELAY, STALL, CLOSE_LATER -> new Fault(route, kind, 0, count(spec, parts, 2),
                        ranged(spec, parts[1], 0, 3_600_000, "milliseconds"));
                case HUGE_EVENT -> new Fault(route, kind, 0, count(spec, parts, 2),
                        ranged(spec, parts[1], 1, 1 << 30, "bytes"));
                case DROP -> new Fault(route, kind, 0, count(spec, parts, 2), ranged(spec, parts[1], 0, 100, "percent"));
                default -> new Fault(route, kind, 0, count(spec, parts, 1), 0);
            };
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("fault '" + spec + "' has a missing or bad number");
        }
    }

    /** The fault as {@link #parse} takes it: {@code /v1/chat/completions=status:503:2}. */
    public String spec() {
        final String number = switch (kind) {
            case STATUS -> ":" + status;
            case DELAY, STALL, CLOSE_LATER, HUGE_EVENT, DROP -> ":" + amount;
            default -> "";
        };
        return route + "=" + kind.name().toLowerCase(Locale.ROOT).replace('_', '-') + number
                + (count >= 0 ? ":" + count : "");
    }

    /** As {@link #spec()}, so that a fault prints as it was given. */
    @Override
    public String toString() {
        return spec();
    }

    private static int ranged(final String spec, final String text, final int min, final int max, final String what) {
        final long v = Long.parseLong(text);
        if (v < min || v > max) {
            throw new IllegalArgumentException("fault '" + spec + "': " + what + " must be between " + min + " and " + max);
        }
        return (int) v;
    }

    private static int count(final String spec, final String[] parts, final int index) {
        return parts.length > index ? ranged(spec, parts[index], 1, Integer.MAX_VALUE, "the count") : -1;
    }
}
