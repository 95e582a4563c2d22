package io.aiperf.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.client.InferenceClient;
import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.config.NetworkConfig;
import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.record.Environment;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.message.BasicHeader;
import org.junit.jupiter.api.Test;

/** The server probes and the clock check send the user's headers as given, Host included, and read the answer. */
class ProbeHeadersTest {
    /** Answers every request with a model list and a Date one hour ahead, recording each head. */
    private static final class Scripted implements AutoCloseable {
        final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final List<String> heads = new CopyOnWriteArrayList<>();

        Scripted() throws IOException {
            final Thread t = new Thread(() -> {
                while (!listener.isClosed()) {
                    try (Socket s = listener.accept()) {
                        heads.add(head(s.getInputStream()));
                        final byte[] body = "{\"data\":[{\"id\":\"served\",\"owned_by\":\"me\"}]}"
                                .getBytes(StandardCharsets.US_ASCII);
                        final String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                                ZonedDateTime.now(ZoneOffset.UTC).plusHours(1));
                        s.getOutputStream().write(("HTTP/1.1 200 OK\r\nServer: scripted/1\r\nDate: " + date
                                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
                        s.getOutputStream().write(body);
                    } catch (IOException e) {
                        // closed
                    }
                }
            }, "scripted-probe");
            t.setDaemon(true);
            t.start();
        }

        String origin() {
            return "http://127.0.0.1:" + listener.getLocalPort();
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

    @Test
    void theModelProbeSendsTheHeadersAsGiven() throws Exception {
        try (Scripted server = new Scripted();
             InferenceClient client = new InferenceClient(2, 30, System::nanoTime, RunLimits.defaults(),
                     NetworkConfig.defaults())) {
            final Environment.ServerIdentity id = ServerProbe.identify(client, server.origin(), server.origin(),
                    new Header[] {new BasicHeader("Host", "model-a.example.com"), new BasicHeader("X-Tenant", "Team A"),
                        new BasicHeader("Content-Type", "application/json")});
            assertThat(id.models()).containsExactly("served (me)");
            assertThat(id.serverHeader()).isEqualTo("scripted/1");
            final String models = server.heads.stream().filter(h -> h.startsWith("GET /v1/models ")).findFirst()
                    .orElseThrow();
            assertThat(models).contains("\r\nHost: model-a.example.com\r\n").contains("\r\nX-Tenant: Team A\r\n")
                    .doesNotContain("Content-Type");
        }
    }

    @Test
    void theClockCheckSendsTheHeadersAsGivenAndReadsTheDate() throws Exception {
        try (Scripted server = new Scripted()) {
            final Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Host", "model-a.example.com");
            headers.put("Authorization", "Bearer k");
            final Double offset = ClockOffset.measure(new ProbeClient(NetworkConfig.defaults()),
                    java.net.URI.create(server.origin() + "/v1/models"), headers);
            assertThat(offset).isNotNull().isBetween(3_600_000 - 5_000.0, 3_600_000 + 5_000.0);
            assertThat(server.heads).hasSize(1);
            assertThat(server.heads.get(0)).contains("\r\nHost: model-a.example.com\r\n")
                    .contains("\r\nAuthorization: Bearer k\r\n");
        }
    }
}
