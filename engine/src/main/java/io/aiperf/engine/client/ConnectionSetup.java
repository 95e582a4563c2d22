package io.aiperf.engine.client;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * What a new connection does between its TCP connect and its first request, in non-blocking steps: a CONNECT
 * tunnel through the proxy (https through a proxy), then the TLS handshake (https). Not thread-safe: one per
 * connection, on the thread that owns it.
 */
final class ConnectionSetup {
    private static final int MAX_PROXY_HEAD = 64 * 1024;
    private final SocketChannel channel;
    private final Http1Origin origin;
    /** The CONNECT request still to write, or null. */
    private ByteBuffer connect;
    /** The proxy's answer so far, or null once the tunnel is up (or when there is none). */
    private ByteBuffer answer;
    private TlsSession tls;

    ConnectionSetup(final SocketChannel channel, final Http1Origin origin) {
        this.channel = channel;
        this.origin = origin;
        if (origin.tunnel()) {
            final String target = origin.authority();
            final StringBuilder s = new StringBuilder("CONNECT ").append(target).append(" HTTP/1.1\r\nHost: ")
                    .append(target).append("\r\n");
            final String auth = origin.proxy().authorization();
            if (auth != null) {
                s.append("Proxy-Authorization: ").append(auth).append("\r\n");
            }
            connect = ByteBuffer.wrap(s.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            answer = ByteBuffer.allocate(1024);
        }
    }

    /** Whether a connection to {@code origin} needs any of this. */
    static boolean needed(final Http1Origin origin) {
        return origin.tls() != null || origin.tunnel();
    }

    /** Takes the setup as far as the socket allows; true once the connection is ready for requests. */
    boolean step() throws IOException {
        if (answer != null && !tunnel()) {
            return false;
        }
        if (origin.tls() == null) {
            return true;
        }
        if (tls == null) {
            final String host = origin.host();
            tls = new TlsSession(origin.tls().engine(host.startsWith("[") ? host.substring(1, host.length() - 1) : host,
                    origin.port()), channel);
        }
        return tls.handshake();
    }

    /** What the next step waits for. */
    int interest() {
        if (answer != null) {
            return connect != null && connect.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ;
        }
        return tls == null ? SelectionKey.OP_READ : tls.interest();
    }

    /** Whether the proxy's tunnel is still being opened. */
    boolean tunnelling() {
        return answer != null;
    }

    /** The TLS layer of the ready connection, or null for plain HTTP. */
    TlsSession tls() {
        return tls;
    }

    /** Sends the CONNECT and reads the proxy's answer head; true once the tunnel is up. */
    private boolean tunnel() throws IOException {
        if (connect.hasRemaining()) {
            channel.write(connect);
            if (connect.hasRemaining()) {
                return false;
            }
        }
        while (true) {
            if (!answer.hasRemaining()) {
                if (answer.capacity() >= MAX_PROXY_HEAD) {
                    throw new ProtocolException("the proxy " + origin.proxy().display() + " answered CONNECT with a "
                            + "head over " + MAX_PROXY_HEAD + " bytes");
                }
                answer = ByteBuffer.allocate(answer.capacity() * 4).put(answer.flip());
            }
            // One byte at a time past the status line would be slow; the proxy sends nothing after its head
            // before the TLS handshake starts, so reading ahead loses nothing.
            final int n = channel.read(answer);
            if (n < 0) {
                throw new java.net.ConnectException("the proxy " + origin.proxy().display()
                        + " closed the connection instead of opening a tunnel to " + origin.authority());
            }
            if (n == 0) {
                return false;
            }
            final String head = new String(answer.array(), 0, answer.position(), StandardCharsets.ISO_8859_1);
            final int end = head.indexOf("\r\n\r\n");
            if (end >= 0) {
                if (end + 4 != answer.position()) {
                    throw new ProtocolException("the proxy " + origin.proxy().display() + " sent bytes after its "
                            + "CONNECT answer");
                }
                final String status = head.substring(0, Math.max(0, head.indexOf("\r\n")));
                if (!status.matches("HTTP/1\\.[01] 2\\d\\d.*")) {
                    throw new java.net.ConnectException("the proxy " + origin.proxy().display()
                            + " refused the tunnel to " + origin.authority() + ": " + status);
                }
                answer = null;
                connect = null;
                return true;
            }
        }
    }
}
