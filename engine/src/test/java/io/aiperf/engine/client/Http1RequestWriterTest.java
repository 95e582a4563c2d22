package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.ProxyConfig;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bytes of a request as the server reads them: the shared head, the per-request ids and length, the body. */
class Http1RequestWriterTest {
    private static final URI URL = URI.create("http://127.0.0.1:8000/v1/chat/completions?api-version=2");

    private static String written(final Http1RequestWriter w, final PreparedRequest request, final Http1Origin origin,
                                  final String id, final boolean last) {
        final Http1Exchange exchange = new Http1Exchange(request, id, "corr-" + id, null, null, null, null, origin, 0,
                null);
        final ByteBuffer b = w.write(exchange, origin, last);
        final byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static PreparedRequest request(final Map<String, String> headers, final String body) {
        return new PreparedRequest(URL, RequestHeaders.of(headers), body.getBytes(StandardCharsets.UTF_8), true,
                PreparedRequest.DEFAULT_SESSION_HEADER, ResponseParser.OPENAI, false);
    }

    @Test
    void theHeadCarriesTheUsersHeadersOnceAndTheTransportsOwnPerRequest() {
        final Http1Origin origin = Http1Origin.resolve(URL, null, null, null);
        final PreparedRequest request = request(Map.of("Authorization", "Bearer k", "Content-Length", "999",
                "Connection", "keep-alive", "X-Request-ID", "theirs"), "{\"model\":\"m\"}");
        final String text = written(new Http1RequestWriter(), request, origin, "r1", false);
        assertThat(text).startsWith("POST /v1/chat/completions?api-version=2 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n");
        assertThat(text).contains("\r\nAuthorization: Bearer k\r\n").contains("\r\nContent-Type: application/json\r\n")
                .contains("\r\nX-Request-ID: r1\r\n").contains("\r\nX-Correlation-ID: corr-r1\r\n")
                .contains("\r\nX-Session-Affinity: corr-r1\r\n").contains("\r\nContent-Length: 13\r\n\r\n")
                .endsWith("\r\n\r\n{\"model\":\"m\"}");
        // what the transport owns is never taken from the user's headers
        assertThat(text).doesNotContain("999").doesNotContain("keep-alive").doesNotContain("theirs")
                .doesNotContain("Connection: close");
    }

    @Test
    void theSharedHeadIsReusedWhileIdsLengthsAndTheLastRequestsCloseChange() {
        final Http1Origin origin = Http1Origin.resolve(URL, null, null, null);
        final Http1RequestWriter w = new Http1RequestWriter();
        final PreparedRequest request = request(Map.of("Host", "api.example.internal"), "{}");
        final String first = written(w, request, origin, "a", false);
        final String last = written(w, new PreparedRequest(URL, request.headers(), "x".repeat(40_000)
                .getBytes(StandardCharsets.UTF_8), true, PreparedRequest.DEFAULT_SESSION_HEADER, ResponseParser.OPENAI,
                true), origin, "b", true);
        assertThat(first).contains("\r\nHost: api.example.internal\r\n").doesNotContain("Host: 127.0.0.1");
        assertThat(last).contains("\r\nX-Request-ID: b\r\n").contains("\r\nConnection: close\r\n")
                .contains("\r\nContent-Length: 40000\r\n\r\n").endsWith("x".repeat(40_000)); // the buffer grew
        assertThat(last.substring(0, last.indexOf("X-Request-ID"))).isEqualTo(first.substring(0,
                first.indexOf("X-Request-ID")));
    }

    @Test
    void throughAProxyPlainHttpNamesItsTargetInFullWithTheProxysCredentials() {
        final ProxyConfig.Proxy proxy = new ProxyConfig.Proxy("127.0.0.1", 3128, "u", null);
        final Http1Origin origin = Http1Origin.resolve(URL, null, proxy, null);
        final String text = written(new Http1RequestWriter(), request(Map.of(), "{}"), origin, "p", false);
        assertThat(text).startsWith("POST http://127.0.0.1:8000/v1/chat/completions?api-version=2 HTTP/1.1\r\n")
                .contains("\r\nProxy-Authorization: Basic dTo=\r\n");
    }
}
