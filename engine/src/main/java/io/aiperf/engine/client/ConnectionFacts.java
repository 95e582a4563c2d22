package io.aiperf.engine.client;

import io.aiperf.engine.record.Environment;

/**
 * How the first inference connection of a run was set up (protocol, TLS version, ALPN, proxy), for the run's
 * {@code environment}. Later connections to the same target negotiate the same. Thread-safe.
 */
final class ConnectionFacts {
    private volatile Environment.Connection first;

    /** Keeps the first connection's facts; later ones are ignored. */
    void record(final String protocol, final String tlsVersion, final String alpn, final String proxy) {
        if (first == null) {
            synchronized (this) {
                if (first == null) {
                    first = new Environment.Connection(protocol, tlsVersion, alpn, proxy);
                }
            }
        }
    }

    boolean recorded() {
        return first != null;
    }

    Environment.Connection get() {
        final Environment.Connection c = first;
        return c == null ? Environment.Connection.UNKNOWN : c;
    }
}
