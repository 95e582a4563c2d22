package io.aiperf.engine.config;

/**
 * How the engine reaches servers, on every path (inference, probes, metrics scrapes, control hooks):
 * src-docs/proxies-and-tls.md.
 *
 * @param http2 carry inference requests as HTTP/2 (AIPerf's {@code http2}); HTTP/1.1 otherwise
 */
public record NetworkConfig(TlsConfig tls, ProxyConfig proxy, boolean http2) {
    public static NetworkConfig defaults() {
        return new NetworkConfig(TlsConfig.defaults(), ProxyConfig.NONE, false);
    }
}
