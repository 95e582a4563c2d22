package io.aiperf.engine.client;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.hc.core5.http.Header;

/**
 * Writes inference requests as HTTP/1.1 bytes. The part every request of a run shares (request line, Host and the
 * endpoint's headers) is encoded once and reused; per request only the ids, the length and the body are added, so
 * sending allocates no header map and formats no header twice. Not thread-safe: one per event loop.
 */
final class Http1RequestWriter {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] REQUEST_ID = ascii("X-Request-ID: ");
    private static final byte[] AFFINITY = ascii("X-Session-Affinity: ");
    private static final byte[] CLOSE = ascii("Connection: close\r\n");
    private static final byte[] CONTENT_LENGTH = ascii("Content-Length: ");
    private ByteBuffer buffer = ByteBuffer.allocate(16 * 1024);
    private Header[] cachedHeaders;
    private URI cachedUri;
    private String cachedSessionHeader;
    private byte[] cachedSessionName;
    private byte[] cachedPrefix;

    /**
     * The whole request, ready to write: valid until the next call.
     *
     * @param last the connection is closed after this request: the server is told so ({@code Connection: close})
     */
    ByteBuffer write(final Http1Exchange exchange, final Http1Origin origin, final boolean last) {
        final PreparedRequest request = exchange.request;
        final byte[] prefix = prefix(request, origin);
        final byte[] body = request.body();
        final int need = prefix.length + body.length + 256 + 3 * (exchange.requestId.length()
                + 2 * exchange.correlationId.length() + request.sessionHeader().length());
        if (buffer.capacity() < need) {
            buffer = ByteBuffer.allocate(Math.max(need, buffer.capacity() * 2));
        }
        buffer.clear();
        buffer.put(prefix);
        header(REQUEST_ID, exchange.requestId);
        header(cachedSessionName, exchange.correlationId);
        header(AFFINITY, exchange.correlationId);
        if (last) {
            buffer.put(CLOSE);
        }
        buffer.put(CONTENT_LENGTH);
        text(Integer.toString(body.length));
        buffer.put(CRLF).put(CRLF).put(body);
        return buffer.flip();
    }

    private byte[] prefix(final PreparedRequest request, final Http1Origin origin) {
        if (request.headers() != cachedHeaders || request.uri() != cachedUri
                || !request.sessionHeader().equals(cachedSessionHeader)) {
            cachedPrefix = encodePrefix(request, origin);
            cachedHeaders = request.headers();
            cachedUri = request.uri();
            cachedSessionHeader = request.sessionHeader();
            cachedSessionName = ascii(cachedSessionHeader + ": ");
        }
        return cachedPrefix;
    }

    private static byte[] encodePrefix(final PreparedRequest request, final Http1Origin origin) {
        final URI uri = request.uri();
        final String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        final StringBuilder s = new StringBuilder(256).append("POST ");
        if (origin.absoluteForm()) {
            // Through a proxy, plain HTTP names its target in full (RFC 9112, 3.2.2).
            s.append("http://").append(origin.hostHeader());
        }
        s.append(path);
        if (uri.getRawQuery() != null) {
            s.append('?').append(uri.getRawQuery());
        }
        // The user's Host, as written, when there is one: clusters route by it (src-docs/cli.md, headers).
        String host = origin.hostHeader();
        for (final Header h : request.headers()) {
            if (h.getName().equalsIgnoreCase("Host")) {
                host = h.getValue();
            }
        }
        s.append(" HTTP/1.1\r\nHost: ").append(host).append("\r\n");
        if (origin.absoluteForm() && origin.proxy().authorization() != null) {
            s.append("Proxy-Authorization: ").append(origin.proxy().authorization()).append("\r\n");
        }
        boolean contentType = false;
        for (final Header h : request.headers()) {
            final String name = h.getName();
            // Set per request below, or owned by the transport.
            if (name.equalsIgnoreCase("Host") || name.equalsIgnoreCase("Content-Length")
                    || name.equalsIgnoreCase("Transfer-Encoding") || name.equalsIgnoreCase("Connection")
                    || name.equalsIgnoreCase("X-Request-ID") || name.equalsIgnoreCase("X-Session-Affinity")
                    || name.equalsIgnoreCase(request.sessionHeader())) {
                continue;
            }
            contentType |= name.equalsIgnoreCase("Content-Type");
            s.append(name).append(": ").append(h.getValue()).append("\r\n");
        }
        if (!contentType) {
            s.append("Content-Type: application/json\r\n");
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** @param name the field's name, colon and space, encoded */
    private void header(final byte[] name, final String value) {
        buffer.put(name);
        text(value);
        buffer.put(CRLF);
    }

    /** ASCII as bytes without a String copy, straight into the buffer's array; anything else as UTF-8. */
    private void text(final String s) {
        final int n = s.length();
        final byte[] a = buffer.array();
        int p = buffer.arrayOffset() + buffer.position();
        for (int i = 0; i < n; i++) {
            final char c = s.charAt(i);
            if (c >= 0x80) {
                buffer.position(p - buffer.arrayOffset());
                buffer.put(s.substring(i).getBytes(StandardCharsets.UTF_8));
                return;
            }
            a[p++] = (byte) c;
        }
        buffer.position(p - buffer.arrayOffset());
    }

    private static byte[] ascii(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
