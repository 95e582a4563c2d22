package io.aiperf.engine.client;

import io.aiperf.engine.config.ProxyConfig;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * Where a request of the lean transport goes: the address connections are opened to (the proxy's, when one is
 * used), the Host header they carry, and what a connection needs before its first request (a CONNECT tunnel, TLS).
 *
 * @param host the host as written in the URL
 * @param tls the TLS client for https, or null for http
 * @param proxy the proxy in between, or null for a direct connection
 * @param facts where the first connection records how it was set up
 * @param address where connections are opened: resolved once, off the event loops (unresolved when the name
 *                could not be resolved; a connect then fails with the reason)
 * @param key how the reuse guard knows this origin ({@link ReuseGuard#key(String, String, int)})
 */
record Http1Origin(String host, int port, String hostHeader, TlsClient tls, ProxyConfig.Proxy proxy,
                   ConnectionFacts facts, InetSocketAddress address, String key) {
    /**
     * The origin of {@code uri}, the name connections are opened to resolved now (a blocking lookup: never call it
     * on an event loop).
     */
    static Http1Origin resolve(final URI uri, final TlsClient tls, final ProxyConfig.Proxy proxy,
                               final ConnectionFacts facts) {
        final boolean https = "https".equalsIgnoreCase(uri.getScheme());
        final int port = uri.getPort() < 0 ? https ? 443 : 80 : uri.getPort();
        final String host = uri.getHost();
        final InetSocketAddress address = proxy != null
                ? new InetSocketAddress(proxy.host(), proxy.port())
                : new InetSocketAddress(host.startsWith("[") ? host.substring(1, host.length() - 1) : host, port);
        return new Http1Origin(host, port, uri.getPort() < 0 ? host : host + ":" + port, https ? tls : null, proxy,
                facts, address, ReuseGuard.key(https ? "https" : "http", host, port));
    }

    /**
     * The key's hash, which the String keeps: the loop looks its idle connections up by origin for every request,
     * and the record's own hash would hash every component each time. Equal origins have equal keys.
     */
    @Override
    public int hashCode() {
        return java.util.Objects.hashCode(key);
    }

    @Override
    public boolean equals(final Object o) {
        return o == this || o instanceof Http1Origin other && port == other.port
                && java.util.Objects.equals(key, other.key) && java.util.Objects.equals(host, other.host)
                && java.util.Objects.equals(hostHeader, other.hostHeader) && java.util.Objects.equals(tls, other.tls)
                && java.util.Objects.equals(proxy, other.proxy) && java.util.Objects.equals(facts, other.facts)
                && java.util.Objects.equals(address, other.address);
    }

    /** {@code host:port}, as a CONNECT request names it. */
    String authority() {
        return host + ":" + port;
    }

    /** Requests go to the proxy in absolute form (plain HTTP through a proxy). */
    boolean absoluteForm() {
        return proxy != null && tls == null;
    }

    /** Connections tunnel through the proxy (https through a proxy). */
    boolean tunnel() {
        return proxy != null && tls != null;
    }

    /** {@code http} or {@code https}. */
    String scheme() {
        return tls == null ? "http" : "https";
    }
}
