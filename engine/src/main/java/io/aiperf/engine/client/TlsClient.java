package io.aiperf.engine.client;

import io.aiperf.engine.config.TlsConfig;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * The client side of TLS for the lean transport: the JDK's {@link SSLEngine} on the context of {@link TlsContexts},
 * built on the first handshake (a plain-HTTP run never pays for it). ALPN offers {@code http/1.1} only, so a server
 * that also speaks HTTP/2 answers in HTTP/1.1: the protocol is the user's choice, not the server's. Thread-safe.
 */
final class TlsClient {
    private static final String[] HTTP_1_1 = {"http/1.1"};
    private final TlsConfig config;
    private volatile SSLContext context;

    TlsClient(final TlsConfig config) {
        this.config = config;
    }

    /** A client engine for {@code host}: SNI and, when verification is on, the host name checked (RFC 2818). */
    SSLEngine engine(final String host, final int port) {
        final SSLEngine engine = context().createSSLEngine(host, port);
        engine.setUseClientMode(true);
        final SSLParameters p = engine.getSSLParameters();
        if (config.verify()) {
            p.setEndpointIdentificationAlgorithm("HTTPS");
        }
        p.setApplicationProtocols(HTTP_1_1);
        engine.setSSLParameters(p);
        return engine;
    }

    private SSLContext context() {
        SSLContext c = context;
        if (c == null) {
            synchronized (this) {
                c = context;
                if (c == null) {
                    c = TlsContexts.create(config);
                    context = c;
                }
            }
        }
        return c;
    }
}
