package io.aiperf.engine.client;

import java.net.InetSocketAddress;
import java.net.URI;

/**
 * Where a plain-HTTP request goes: the address connections are opened to, and the Host header they carry.
 *
 * @param host the host as written in the URL
 * @param address where connections are opened: resolved once, off the event loops (unresolved when the name
 *                could not be resolved; a connect then fails with the reason)
 * @param key how the reuse guard knows this origin ({@link ReuseGuard#key(String, String, int)})
 */
record Http1Origin(String host, int port, String hostHeader, InetSocketAddress address, String key) {
    /** The origin of {@code uri}, its name resolved now (a blocking lookup: never call it on an event loop). */
    static Http1Origin resolve(final URI uri) {
        final int port = uri.getPort() < 0 ? 80 : uri.getPort();
        final String host = uri.getHost();
        final String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        return new Http1Origin(host, port, uri.getPort() < 0 ? host : host + ":" + port,
                new InetSocketAddress(bare, port), ReuseGuard.key("http", host, port));
    }
}
