package io.aiperf.engine.client;

import io.aiperf.engine.config.TlsConfig;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HttpsSupport;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;

/** The TLS strategy of both HTTP clients (inference and control) from a {@link TlsConfig}. Stateless. */
public final class TlsStrategies {
    private TlsStrategies() {
    }

    /** @throws IllegalStateException when the CA file cannot be read (config validation reads it first) */
    public static DefaultClientTlsStrategy of(final TlsConfig tls) {
        try {
            if (!tls.verify()) {
                final SSLContext context = SSLContext.getInstance("TLS");
                context.init(null, new TrustManager[] {new TrustAll()}, null);
                return new DefaultClientTlsStrategy(context, NoopHostnameVerifier.INSTANCE);
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
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return new DefaultClientTlsStrategy(context, HttpsSupport.getDefaultHostnameVerifier());
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
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
