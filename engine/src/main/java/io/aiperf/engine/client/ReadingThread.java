package io.aiperf.engine.client;

import java.util.Locale;

/**
 * When an event loop of the lean transport hands its reads to a reading thread that only reads and stamps
 * ({@link Http1Reader}): never (the default), for streamed requests to plain http, where each event's stamp would
 * not wait for the parsing of other streams, or always. Measured on 2 cores shared with the server, the hand-off cost
 * more than it saved: the loop that reads, stamps and parses gave the lower p99 in all 6 alternated pairs at 64 and
 * 256 streams, and the lower p50 in 5 (bench/history/analyses-2026-12.md, 2026-12-02 part 5), so the reading thread is
 * for machines with cores to spare. An https stream keeps the single loop under {@code streaming}: its records are
 * decrypted on the loop, so each read would be handed over and back for a stamp taken no earlier. Read from the system
 * property {@code aiperf.readingThread} ({@code never}, {@code streaming}, {@code always}); src-docs/performance.md
 * says what each costs.
 */
enum ReadingThread {
    STREAMING, ALWAYS, NEVER;

    static final String PROPERTY = "aiperf.readingThread";

    /** The configured choice; an unknown value is an error that names the property. */
    static ReadingThread configured() {
        final String value = System.getProperty(PROPERTY, "never");
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
