package io.aiperf.engine.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * How https targets are trusted, and how the engine proves who it is to them, for inference and control calls alike
 * (src-docs/proxies-and-tls.md).
 *
 * @param verify whether the server's certificate and host name are checked (AIPerf's {@code ssl_verify})
 * @param caFile a PEM file of CA certificates to trust instead of the JDK's, or null
 * @param certFile a PEM file with the client certificate (chain) for mutual TLS, or null
 * @param keyFile a PEM file with that certificate's private key (PKCS#8, or PKCS#1 RSA), or null
 */
public record TlsConfig(boolean verify, String caFile, String certFile, String keyFile) {
    public TlsConfig(final boolean verify, final String caFile) {
        this(verify, caFile, null, null);
    }

    public static TlsConfig defaults() {
        return new TlsConfig(true, null);
    }

    /** The CA certificates of {@link #caFile()}; at least one. */
    public List<Certificate> caCertificates() throws IOException, GeneralSecurityException {
        return certificates(caFile);
    }

    /** The client certificate chain of {@link #certFile()}; at least one. */
    public List<Certificate> clientCertificates() throws IOException, GeneralSecurityException {
        return certificates(certFile);
    }

    static List<Certificate> certificates(final String file) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            final List<Certificate> certs = new ArrayList<>(CertificateFactory.getInstance("X.509").generateCertificates(in));
            if (certs.isEmpty()) {
                throw new GeneralSecurityException("no certificate in " + file);
            }
            return certs;
        }
    }

    /** The private key of {@link #keyFile()}. */
    public java.security.PrivateKey clientKey() throws IOException, GeneralSecurityException {
        return PemKeys.read(Path.of(keyFile));
    }
}
