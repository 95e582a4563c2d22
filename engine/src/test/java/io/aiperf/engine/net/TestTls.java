package io.aiperf.engine.net;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Self-signed certificates made for one test with the JDK's keytool: a server certificate for 127.0.0.1 and
 * localhost, and a client certificate for mutual TLS, each also as PEM files (certificate, private key).
 */
public final class TestTls {
    private static final String PASSWORD = "changeit";
    public final Path serverStore;
    public final Path serverCertPem;
    public final Path clientStore;
    public final Path clientCertPem;
    public final Path clientKeyPem;

    private TestTls(final Path dir) {
        serverStore = dir.resolve("server.p12");
        serverCertPem = dir.resolve("server.pem");
        clientStore = dir.resolve("client.p12");
        clientCertPem = dir.resolve("client.pem");
        clientKeyPem = dir.resolve("client-key.pem");
    }

    public static TestTls create(final Path dir) throws Exception {
        final TestTls t = new TestTls(dir);
        keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                "-keystore", t.serverStore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", t.serverStore.toString(), "-storepass",
                PASSWORD, "-file", t.serverCertPem.toString());
        keytool("-genkeypair", "-alias", "client", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=aiperf-test-client", "-storetype", "PKCS12", "-keystore", t.clientStore.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "client", "-keystore", t.clientStore.toString(), "-storepass",
                PASSWORD, "-file", t.clientCertPem.toString());
        final KeyStore client = load(t.clientStore);
        final byte[] key = client.getKey("client", PASSWORD.toCharArray()).getEncoded(); // PKCS#8
        Files.writeString(t.clientKeyPem, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key)
                + "\n-----END PRIVATE KEY-----\n");
        return t;
    }

    /** The server's context; with {@code trustClient}, it also trusts the client certificate (for mutual TLS). */
    public SSLContext serverContext(final boolean trustClient) throws IOException, GeneralSecurityException {
        final KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(load(serverStore), PASSWORD.toCharArray());
        final SSLContext context = SSLContext.getInstance("TLS");
        TrustManagerFactory tmf = null;
        if (trustClient) {
            final KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry("client", load(clientStore).getCertificate("client"));
            tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
        }
        context.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
        return context;
    }

    private static KeyStore load(final Path store) throws IOException, GeneralSecurityException {
        final KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        return ks;
    }

    private static void keytool(final String... args) throws Exception {
        final List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("keytool failed: " + out);
        }
    }
}
