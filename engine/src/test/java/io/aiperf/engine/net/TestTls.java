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
 * Self-signed certificates made with the JDK's keytool (once per JVM, copied into each test's directory): a server certificate for 127.0.0.1 and
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

    /** Made once per JVM (keytool starts a JVM of its own, slow on a busy machine) and copied for each caller. */
    private static TestTls made;

    /** The certificates in {@code dir}: the same keys for every test of this JVM, in files of the test's own. */
    public static synchronized TestTls create(final Path dir) throws Exception {
        if (made == null) {
            final Path home = Files.createTempDirectory("aiperf-test-tls");
            made = generate(home);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(home)));
        }
        final TestTls t = new TestTls(dir);
        Files.createDirectories(dir);
        for (final Path[] pair : List.of(new Path[] {made.serverStore, t.serverStore},
                new Path[] {made.serverCertPem, t.serverCertPem}, new Path[] {made.clientStore, t.clientStore},
                new Path[] {made.clientCertPem, t.clientCertPem}, new Path[] {made.clientKeyPem, t.clientKeyPem})) {
            Files.copy(pair[0], pair[1], java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return t;
    }

    private static TestTls generate(final Path dir) throws Exception {
        final TestTls t = new TestTls(dir);
        keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                "-keystore", t.serverStore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-genkeypair", "-alias", "client", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=aiperf-test-client", "-storetype", "PKCS12", "-keystore", t.clientStore.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD);
        // the certificates as PEM, here rather than by two more keytool JVMs
        Files.writeString(t.serverCertPem, pem("CERTIFICATE", load(t.serverStore).getCertificate("server").getEncoded()));
        final KeyStore client = load(t.clientStore);
        Files.writeString(t.clientCertPem, pem("CERTIFICATE", client.getCertificate("client").getEncoded()));
        final byte[] key = client.getKey("client", PASSWORD.toCharArray()).getEncoded(); // PKCS#8
        Files.writeString(t.clientKeyPem, pem("PRIVATE KEY", key));
        return t;
    }

    private static String pem(final String type, final byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static void delete(final Path dir) {
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (final Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temporary directory left behind; nothing to report at exit
        }
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
