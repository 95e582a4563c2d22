package io.aiperf.engine.client;

import io.aiperf.engine.config.TlsConfig;
import java.io.IOException;
import javax.net.ssl.SSLSocket;
import java.net.Socket;
import java.net.SocketAddress;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.nio.ssl.TlsStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.net.NamedEndpoint;
import org.apache.hc.core5.reactor.ssl.TransportSecurityLayer;
import org.apache.hc.core5.util.Timeout;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HttpsSupport;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;

/** The TLS strategy of both HTTP clients (inference and control) from a {@link TlsConfig}. Stateless. */
public final class TlsStrategies {
    private TlsStrategies() {
    }

    /**
     * The strategy for {@code tls}, set up on its first handshake: a run against plain HTTP never pays for a TLS
     * context (a few hundred milliseconds of start-up; bench/history/performance-page-2026-12-06.md).
     */
    public static Lazy of(final TlsConfig tls) {
        return new Lazy(tls);
    }

    /** A strategy created on first use. Thread-safe. */
    public static final class Lazy implements TlsStrategy, TlsSocketStrategy {
        private final TlsConfig tls;
        private volatile DefaultClientTlsStrategy strategy;

        private Lazy(final TlsConfig tls) {
            this.tls = tls;
        }

        private DefaultClientTlsStrategy strategy() {
            DefaultClientTlsStrategy s = strategy;
            if (s == null) {
                synchronized (this) {
                    s = strategy;
                    if (s == null) {
                        s = create(tls);
                        strategy = s;
                    }
                }
            }
            return s;
        }

        @Override
        @SuppressWarnings("deprecation")
        public boolean upgrade(final TransportSecurityLayer layer, final HttpHost host, final SocketAddress local,
                               final SocketAddress remote, final Object attachment, final Timeout timeout) {
            return strategy().upgrade(layer, host, local, remote, attachment, timeout);
        }

        @Override
        public void upgrade(final TransportSecurityLayer layer, final NamedEndpoint endpoint, final Object attachment,
                            final Timeout timeout, final FutureCallback<TransportSecurityLayer> callback) {
            strategy().upgrade(layer, endpoint, attachment, timeout, callback);
        }

        @Override
        public SSLSocket upgrade(final Socket socket, final String target, final int port, final Object attachment,
                                 final HttpContext context) throws IOException {
            return strategy().upgrade(socket, target, port, attachment, context);
        }
    }

    /** @throws IllegalStateException when a file cannot be read (config validation reads them first) */
    static DefaultClientTlsStrategy create(final TlsConfig tls) {
        return new DefaultClientTlsStrategy(TlsContexts.create(tls),
                tls.verify() ? HttpsSupport.getDefaultHostnameVerifier() : NoopHostnameVerifier.INSTANCE);
    }
}
