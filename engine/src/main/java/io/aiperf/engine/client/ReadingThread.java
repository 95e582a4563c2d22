package io.aiperf.engine.client;

import java.util.Locale;

/**
 * When an event loop of the lean transport hands its reads to a reading thread that only reads and stamps
 * ({@link Http1Reader}): for streamed requests to plain http (the default), where each event's stamp is a measurement
 * and must not wait for the parsing of other streams; always; or never. An https stream keeps the single loop under
 * the default: its records are decrypted on the loop, so each read would be handed over and back (one more wake-up
 * per read) for a stamp taken no earlier. Read from the system property {@code aiperf.readingThread}
 * ({@code streaming}, {@code always}, {@code never}); src-docs/performance.md says what each costs.
 */
enum ReadingThread {
    STREAMING, ALWAYS, NEVER;

    static final String PROPERTY = "aiperf.readingThread";

    /** The configured choice; an unknown value is an error that names the property. */
    static ReadingThread configured() {
        final String value = System.getProperty(PROPERTY, "streaming");
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROPERTY + ": '" + value + "' is not one of streaming, always, never",
                    e);
        }
    }

    /**
     * Whether a loop without a reading thread starts one for a request that {@code streams} (or not), to an origin
     * whose connections are {@code plain} (no TLS, no tunnel) or not.
     */
    boolean startsFor(final boolean streams, final boolean plain) {
        return this == ALWAYS || (this == STREAMING && streams && plain);
    }
}
