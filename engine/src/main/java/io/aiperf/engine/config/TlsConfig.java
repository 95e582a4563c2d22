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
 * How https targets are trusted, for inference and control calls alike.
 *
 * @param verify whether the server's certificate and host name are checked (AIPerf's {@code ssl_verify})
 * @param caFile a PEM file of CA certificates to trust instead of the JDK's, or null
 */
public record TlsConfig(boolean verify, String caFile) {
    public static TlsConfig defaults() {
        return new TlsConfig(true, null);
    }

    /** The CA certificates of {@link #caFile()}; at least one. */
    public List<Certificate> caCertificates() throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(Path.of(caFile))) {
            final List<Certificate> certs = new ArrayList<>(CertificateFactory.getInstance("X.509").generateCertificates(in));
            if (certs.isEmpty()) {
                throw new GeneralSecurityException("no certificate in " + caFile);
            }
            return certs;
        }
    }
}
