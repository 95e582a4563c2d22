package io.aiperf.engine.client;

import io.aiperf.engine.config.NetworkConfig;
import io.aiperf.engine.config.ProxyConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One GET at a time on the lean transport's parts (the same proxy choice, CONNECT tunnel, TLS and response reader),
 * for what the engine asks a server besides inference: {@code /v1/models}, {@code /version}, {@code /metrics} and
 * the clock check. Each GET has its own connection, a deadline over connect, head and body, and a body limit: a
 * server that trickles or never ends its answer costs at most that time and that memory. Thread-safe.
 */
public final class ProbeClient {
    private final TlsClient tls;
    private final ProxyConfig proxies;

    public ProbeClient(final NetworkConfig network) {
        this.tls = new TlsClient(network.tls());
        this.proxies = network.proxy();
    }

    /**
     * An answer.
     *
     * @param headers the first value of each header, by lower-case name
     */
    public record Response(int status, Map<String, String> headers, byte[] body) {
        public String header(final String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /**
     * GETs {@code uri} with {@code headers} as given (Content-Type and the framing headers excepted).
     *
     * @throws ResponseTooLargeException when the body exceeds {@code maxBytes}
     * @throws SocketTimeoutException when the whole answer took longer than {@code timeoutSeconds}
     * @throws IOException when the connection fails
     */
    public Response get(final URI uri, final Map<String, String> headers, final double timeoutSeconds,
                        final int maxBytes) throws IOException {
        return exchange(uri, headers, null, timeoutSeconds, timeoutSeconds, maxBytes);
    }

    /**
     * As {@link #get}, with a shorter bound on the connect alone: a host that drops packets (a machine without a
     * route out) is given up on in {@code connectSeconds}, while a slow download still has {@code timeoutSeconds}.
     */
    public Response get(final URI uri, final Map<String, String> headers, final double timeoutSeconds,
                        final double connectSeconds, final int maxBytes) throws IOException {
        return exchange(uri, headers, null, timeoutSeconds, Math.min(connectSeconds, timeoutSeconds), maxBytes);
    }

    /** As {@link #get}, a POST of the JSON {@code body} (readiness checks send one tiny request). */
    public Response post(final URI uri, final Map<String, String> headers, final byte[] body,
                         final double timeoutSeconds, final int maxBytes) throws IOException {
        return exchange(uri, headers, body, timeoutSeconds, timeoutSeconds, maxBytes);
    }

    private Response exchange(final URI uri, final Map<String, String> headers, final byte[] body,
                              final double timeoutSeconds, final double connectSeconds, final int maxBytes)
            throws IOException {
        final long start = System.nanoTime();
        final long deadline = start + (long) (timeoutSeconds * 1e9);
        final long connectDeadline = start + (long) (connectSeconds * 1e9);
        final Http1Origin origin = Http1Origin.resolve(uri, tls, proxies.forTarget(uri), new ConnectionFacts());
        try (SocketChannel channel = SocketChannel.open(); Selector selector = Selector.open()) {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            final SelectionKey key = channel.register(selector, SelectionKey.OP_CONNECT);
            if (!channel.connect(origin.address())) {
                while (!channel.finishConnect()) {
                    await(selector, key, SelectionKey.OP_CONNECT, connectDeadline, connectSeconds);
                }
            }
            final ConnectionSetup setup = new ConnectionSetup(channel, origin);
            while (!setup.step()) {
                // A proxy's tunnel is part of the connect: a proxy that cannot reach the target (a host that drops
                // packets) is given up on as soon as a direct connect to it would be.
                if (!setup.tunnelling()) {
                    await(selector, key, setup.interest(), deadline, timeoutSeconds);
                } else if (!waited(selector, key, setup.interest(), connectDeadline)) {
                    throw new SocketTimeoutException("the proxy " + origin.proxy().display() + " opened no tunnel to "
                            + origin.authority() + " within " + connectSeconds + " s");
                }
            }
            final TlsSession session = setup.tls();
            final ByteBuffer request = ByteBuffer.wrap(request(uri, origin, headers, body));
            while (true) {
                if (session == null) {
                    channel.write(request);
                } else {
                    session.write(request);
                }
                if (!request.hasRemaining() && (session == null || session.flushed())) {
                    break;
                }
                await(selector, key, SelectionKey.OP_WRITE, deadline, timeoutSeconds);
            }
            final Collected answer = new Collected(maxBytes, uri);
            final Http1ResponseReader reader = new Http1ResponseReader();
            reader.reset(answer);
            final ByteBuffer in = ByteBuffer.allocate(32 * 1024);
            while (true) {
                in.clear();
                final int n = session == null ? channel.read(in) : session.read(in);
                if (n < 0) {
                    reader.endOfInput(System.nanoTime());
                    break;
                }
                if (n > 0 && reader.feed(in.flip(), System.nanoTime())) {
                    break;
                }
                if (n == 0 && (session == null || !session.more())) {
                    await(selector, key, SelectionKey.OP_READ, deadline, timeoutSeconds);
                } else if (System.nanoTime() - deadline > 0) {
                    throw timedOut(timeoutSeconds); // a server that never pauses is bounded too
                }
            }
            return new Response(answer.status, answer.headers, answer.body.toByteArray());
        }
    }

    private static void await(final Selector selector, final SelectionKey key, final int ops, final long deadline,
                              final double timeoutSeconds) throws IOException {
        if (!waited(selector, key, ops, deadline)) {
            throw timedOut(timeoutSeconds);
        }
    }

    /** Waits for {@code ops} until the deadline at most; false when it had already passed. */
    private static boolean waited(final Selector selector, final SelectionKey key, final int ops, final long deadline)
            throws IOException {
        final long left = deadline - System.nanoTime();
        if (left <= 0) {
            return false;
        }
        key.interestOps(ops);
        selector.select(Math.max(1, left / 1_000_000));
        selector.selectedKeys().clear();
        return true;
    }

    private static SocketTimeoutException timedOut(final double timeoutSeconds) {
        return new SocketTimeoutException("no complete answer within " + timeoutSeconds + " s");
    }

    private static byte[] request(final URI uri, final Http1Origin origin, final Map<String, String> headers,
                                  final byte[] body) {
        final String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        final StringBuilder s = new StringBuilder(body == null ? "GET " : "POST ");
        if (origin.absoluteForm()) {
            s.append("http://").append(origin.hostHeader());
        }
        s.append(path);
        if (uri.getRawQuery() != null) {
            s.append('?').append(uri.getRawQuery());
        }
        s.append(" HTTP/1.1\r\n");
        boolean host = false;
        for (final Map.Entry<String, String> h : headers.entrySet()) {
            final String name = h.getKey();
            if (name.equalsIgnoreCase("Content-Type") || name.equalsIgnoreCase("Content-Length")
                    || name.equalsIgnoreCase("Transfer-Encoding") || name.equalsIgnoreCase("Connection")) {
                continue; // set below for a body, and this connection carries one request
            }
            host |= name.equalsIgnoreCase("Host");
            s.append(name).append(": ").append(h.getValue()).append("\r\n");
        }
        if (!host) {
            s.append("Host: ").append(origin.hostHeader()).append("\r\n");
        }
        if (origin.absoluteForm() && origin.proxy().authorization() != null) {
            s.append("Proxy-Authorization: ").append(origin.proxy().authorization()).append("\r\n");
        }
        if (body != null) {
            s.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
        }
        s.append("Connection: close\r\n\r\n");
        final byte[] head = s.toString().getBytes(StandardCharsets.UTF_8);
        if (body == null) {
            return head;
        }
        final byte[] out = java.util.Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, out, head.length, body.length);
        return out;
    }

    /** Collects one answer, up to the body limit. */
    private static final class Collected implements Http1ResponseReader.Sink {
        private final int maxBytes;
        private final URI uri;
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        final Map<String, String> headers = new LinkedHashMap<>();
        int status;

        Collected(final int maxBytes, final URI uri) {
            this.maxBytes = maxBytes;
            this.uri = uri;
        }

        @Override
        public void rawHead(final byte[] bytes, final int length) {
            final String[] lines = new String(bytes, 0, length, StandardCharsets.ISO_8859_1).split("\r?\n");
            for (int i = 1; i < lines.length; i++) {
                final int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    headers.putIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            lines[i].substring(colon + 1).trim());
                }
            }
        }

        @Override
        public void head(final int status, final String reason, final String mimeType, final long nanos) {
            this.status = status;
        }

        @Override
        public void body(final ByteBuffer bytes, final boolean end, final long nanos) throws IOException {
            if (body.size() + bytes.remaining() > maxBytes) {
                throw new ResponseTooLargeException("the answer of GET " + uri.getRawPath() + " is larger than " + maxBytes
                        + " bytes");
            }
            final byte[] chunk = new byte[bytes.remaining()];
            bytes.get(chunk);
            body.write(chunk, 0, chunk.length);
        }
    }
}
