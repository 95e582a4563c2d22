package io.aiperf.engine.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.config.NetworkConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The scraper against scripted loopback servers: the user's headers as given, and an endless answer. */
class ServerMetricsCollectorTest {
    /** Answers every connection with {@code answer}, recording each request head. */
    private static final class Scripted implements AutoCloseable {
        final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final List<String> heads = new CopyOnWriteArrayList<>();

        Scripted(final boolean endless) throws IOException {
            final Thread t = new Thread(() -> {
                while (!listener.isClosed()) {
                    try (Socket s = listener.accept()) {
                        heads.add(head(s.getInputStream()));
                        final OutputStream out = s.getOutputStream();
                        if (!endless) {
                            final byte[] body = "# TYPE up gauge\nup 1\n".getBytes(StandardCharsets.US_ASCII);
                            out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length
                                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                            out.write(body);
                            continue;
                        }
                        out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
                                .getBytes(StandardCharsets.US_ASCII));
                        final byte[] line = "some_series{label=\"0123456789\"} 1\n".repeat(2000)
                                .getBytes(StandardCharsets.US_ASCII);
                        final byte[] chunk = (Integer.toHexString(line.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
                        // Endless, until the client hangs up (bounded anyway: 64 MiB).
                        for (long sent = 0; sent < 64L << 20; sent += line.length) {
                            out.write(chunk);
                            out.write(line);
                            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                        }
                    } catch (IOException e) {
                        // the client hung up
                    }
                }
            }, "scripted-metrics");
            t.setDaemon(true);
            t.start();
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/metrics");
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }

        private static String head(final InputStream in) throws IOException {
            final StringBuilder sb = new StringBuilder();
            int b;
            while ((b = in.read()) >= 0) {
                sb.append((char) b);
                if (sb.toString().endsWith("\r\n\r\n")) {
                    break;
                }
            }
            return sb.toString();
        }
    }

    private static ServerMetricsCollector collector(final URI target, final Map<String, String> headers,
                                                    final List<String> warnings) {
        return new ServerMetricsCollector(List.of(target), headers, 0.05, new ProbeClient(NetworkConfig.defaults()))
                .onWarning(warnings::add);
    }

    @Test
    void scrapesCarryTheUsersHeadersAsGiven() throws Exception {
        try (Scripted server = new Scripted(false)) {
            final List<String> warnings = new CopyOnWriteArrayList<>();
            final ServerMetricsCollector c = collector(server.uri(), new java.util.LinkedHashMap<>(Map.of(
                    "Host", "model-a.example.com", "X-Tenant", "Team A")), warnings);
            c.phaseStarted();
            c.phaseDrained();
            assertThat(c.result().unanswered()).isEmpty();
            assertThat(server.heads).isNotEmpty();
            assertThat(server.heads.get(0)).startsWith("GET /metrics HTTP/1.1\r\n")
                    .contains("\r\nHost: model-a.example.com\r\n").contains("\r\nX-Tenant: Team A\r\n")
                    .doesNotContain("Upgrade");
            assertThat(warnings).isEmpty();
        }
    }

    @Test
    void anEndlessAnswerIsDroppedWithOneWarningAndNotAskedAgain() throws Exception {
        try (Scripted server = new Scripted(true)) {
            final List<String> warnings = new CopyOnWriteArrayList<>();
            final ServerMetricsCollector c = collector(server.uri(), Map.of(), warnings);
            c.phaseStarted();
            c.phaseDrained();
            assertThat(warnings).hasSize(1);
            assertThat(warnings.get(0)).contains("more than " + ServerMetricsCollector.MAX_BYTES + " bytes")
                    .contains("dropped");
            assertThat(server.heads).hasSize(1);
            assertThat(c.result().unanswered()).hasSize(1);
        }
    }
}
