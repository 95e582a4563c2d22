package io.aiperf.engine.config;

import java.util.Locale;

/**
 * When an inference request may go out on a connection an earlier one used (upstream AIPerf's
 * {@code --connection-reuse-strategy}, src-docs/cli.md).
 */
public enum ConnectionReuse {
    /** Keep-alive connections shared by all requests; stopped for a server seen closing them after its answers. */
    POOLED("pooled"),
    /** A new connection for every request, closed after its answer. */
    NEVER("never"),
    /** A conversation keeps its connection from turn to turn; closed after its last turn. */
    STICKY_USER_SESSIONS("sticky-user-sessions");

    private final String wireName;

    ConnectionReuse(final String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Upstream's names, with {@code _} or {@code -} and any case; null when {@code text} is none of them. */
    public static ConnectionReuse parse(final String text) {
        final String t = text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (final ConnectionReuse r : values()) {
            if (r.wireName.equals(t)) {
                return r;
            }
        }
        return null;
    }
}
