package io.aiperf.engine.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.TlsConfig;
import io.aiperf.engine.time.CancellationToken;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The control POST on the wire, read by a loopback server. */
class HttpControlTransportTest {
    @Test
    void theUsersHostAndHeadersReachTheWireAsWrittenInOrder() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            final CompletableFuture<String> head = CompletableFuture.supplyAsync(() -> {
                try (Socket s = server.accept(); InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                    final ByteArrayOutputStream seen = new ByteArrayOutputStream();
                    while (!seen.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                        final int b = in.read();
                        if (b < 0) {
                            break;
                        }
                        seen.write(b);
                    }
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    return seen.toString(StandardCharsets.ISO_8859_1);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            final Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Host", "model-a.example.com");
            headers.put("X-Zeta", "1");
            headers.put("X-Alpha", "2");
            headers.put("Authorization", "Bearer k");
            final HttpControlTransport transport = new HttpControlTransport(headers, new CancellationToken(),
                    io.aiperf.engine.client.TlsStrategies.of(TlsConfig.defaults()), io.aiperf.engine.config.ProxyConfig.NONE);
            assertThat(transport.post("http://127.0.0.1:" + server.getLocalPort() + "/reset_prefix_cache", 10))
                    .isEqualTo(200);
            final String h = head.get(10, TimeUnit.SECONDS);
            assertThat(h).startsWith("POST /reset_prefix_cache HTTP/1.1\r\n")
                    .contains("\r\nHost: model-a.example.com\r\n").contains("\r\nAuthorization: Bearer k\r\n");
            assertThat(h.split("(?i)\r\nhost:", -1)).as("one Host header").hasSize(2);
            assertThat(h.indexOf("X-Zeta: 1")).isLessThan(h.indexOf("X-Alpha: 2"));
        }
    }

    @Test
    void aHeadWithoutEndIsAnErrorAtItsFieldLimit() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            CompletableFuture.runAsync(() -> {
                try (Socket s = server.accept(); OutputStream out = s.getOutputStream()) {
                    out.write("HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.US_ASCII));
                    for (int i = 0; i < 10_000; i++) { // far more fields than any real head, then a normal end
                        out.write(("X-Field-" + i + ": " + "a".repeat(88) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    }
                    out.write("Content-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                } catch (java.io.IOException e) {
                    // the client gave up on the head first
                }
            });
            final HttpControlTransport transport = new HttpControlTransport(Map.of(), new CancellationToken(),
                    io.aiperf.engine.client.TlsStrategies.of(TlsConfig.defaults()), io.aiperf.engine.config.ProxyConfig.NONE);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> transport.post("http://127.0.0.1:"
                    + server.getLocalPort() + "/reset_prefix_cache", 30)).isInstanceOf(java.io.IOException.class)
                    .hasMessageContainingAll("header");
        }
    }
}
