package io.aiperf.engine.client;

import io.aiperf.engine.config.TlsConfig;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The TLS context of every client of the engine (inference, probes, scrapes, control hooks) from a {@link TlsConfig}:
 * whom to trust (the JDK's store, a CA file, or nobody checked) and the client certificate for mutual TLS. Stateless.
 */
final class TlsContexts {
    private TlsContexts() {
    }

    /** @throws IllegalStateException when a file cannot be read (config validation reads them first) */
    static SSLContext create(final TlsConfig tls) {
        try {
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers(tls), trustManagers(tls), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    private static TrustManager[] trustManagers(final TlsConfig tls) throws IOException, GeneralSecurityException {
        if (!tls.verify()) {
            return new TrustManager[] {new TrustAll()};
        }
        final TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        if (tls.caFile() == null) {
            tmf.init((KeyStore) null); // the JDK's trust store
        } else {
            final KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (final Certificate c : tls.caCertificates()) {
                store.setCertificateEntry("ca-" + i++, c);
            }
            tmf.init(store);
        }
        return tmf.getTrustManagers();
    }

    /** The client certificate and key, or null (no client certificate) when none is configured. */
    private static KeyManager[] keyManagers(final TlsConfig tls) throws IOException, GeneralSecurityException {
        if (tls.certFile() == null || tls.keyFile() == null) {
            return null;
        }
        final KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        final char[] none = new char[0];
        store.setKeyEntry("client", tls.clientKey(), none, tls.clientCertificates().toArray(new Certificate[0]));
        final KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, none);
        return kmf.getKeyManagers();
    }

    /** Trusts every certificate: only for {@code ssl_verify: false}, which warns on every run. */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(final X509Certificate[] chain, final String authType) {
            // not a server
        }

        @Override
        public void checkServerTrusted(final X509Certificate[] chain, final String authType) {
            // verification was switched off by the user
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
