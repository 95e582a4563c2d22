package io.aiperf.engine.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;

/**
 * TLS in front of a plain loopback server (the mock): a certificate for 127.0.0.1 made by the JDK's keytool for
 * this test, an SSL server socket, and two pumps per connection. The CA file is the certificate itself.
 */
final class TlsProxy implements AutoCloseable {
    private static final String PASSWORD = "test-keystore";
    private final SSLServerSocket server;
    private final Path caFile;

    TlsProxy(final Path dir, final int targetPort) throws Exception {
        final Path keystore = dir.resolve("server.p12");
        caFile = dir.resolve("ca.pem");
        final String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        run(List.of(keytool, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD));
        run(List.of(keytool, "-exportcert", "-rfc", "-alias", "server", "-keystore", keystore.toString(),
                "-storepass", PASSWORD, "-file", caFile.toString()));
        final KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        final KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD.toCharArray());
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);
        server = (SSLServerSocket) context.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    final Socket client = server.accept();
                    final Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                    pump(client, target);
                    pump(target, client);
                } catch (IOException closed) {
                    return;
                }
            }
        }, "tls-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private static void run(final List<String> cmd) throws Exception {
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + cmd);
        }
    }

    private static void pump(final Socket from, final Socket to) {
        final Thread t = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException gone) {
                // either side hung up
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
        }, "tls-pump");
        t.setDaemon(true);
        t.start();
    }

    String url() {
        return "https://127.0.0.1:" + server.getLocalPort();
    }

    Path caFile() {
        return caFile;
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
