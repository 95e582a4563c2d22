package io.aiperf.engine.client;

import java.net.InetSocketAddress;
import java.net.URI;

/**
 * Where a plain-HTTP request goes: the address connections are opened to, and the Host header they carry.
 *
 * @param host the host as written in the URL
 */
record Http1Origin(String host, int port, String hostHeader) {
    static Http1Origin of(final URI uri) {
        final int port = uri.getPort() < 0 ? 80 : uri.getPort();
        final String host = uri.getHost();
        return new Http1Origin(host, port, uri.getPort() < 0 ? host : host + ":" + port);
    }

    /** Resolved at every connect, so a name that moves is followed. */
    InetSocketAddress address() {
        return new InetSocketAddress(host.startsWith("[") ? host.substring(1, host.length() - 1) : host, port);
    }
}
