package io.aiperf.engine.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One keep-alive connection of the lean HTTP/1.1 transport: its socket, the request it carries (one at a time, no
 * pipelining), the part of that request the socket has not taken yet, and the reader of its responses. Owned by one
 * event loop.
 */
final class Http1Connection implements Http1ResponseReader.Sink {
    final Http1Origin origin;
    final SocketChannel channel;
    SelectionKey key;
    /** When the connect started (monotonic ns), while it is under way; -1 once connected. */
    long connectingSince = -1;
    /** The request on this connection, or null while it is idle. */
    Http1Exchange current;
    /** When its connect started and finished (monotonic ns). */
    long connectStartNanos = -1;
    long connectDoneNanos = -1;
    /** Opened ahead of the load (preconnect): no request waited for its connect. */
    boolean ahead;
    /** When it last became idle (monotonic ns). */
    long idleSince;
    /** Whether this connection carried an earlier request. */
    boolean reused;
    /** Bytes of the current request the socket has not taken yet, or null. */
    ByteBuffer unwritten;
    final Http1ResponseReader reader;
    /** The tunnel and TLS handshake after the TCP connect, while under way; null before and after. */
    ConnectionSetup setup;
    /** The TLS layer between the socket and the reader and writer, or null for plain HTTP. */
    TlsSession tls;
    /** Where the current answer redirects to, when it is followed: its body is skipped, not collected. */
    java.net.URI redirect;
    /** When the current request was written (monotonic ns). */
    long sentNanos;
    /** The conversation this connection is kept for between its turns (sticky-user-sessions), or null. */
    String session;
    boolean closed;
    /**
     * Set once the connection is ready and plain: a reading thread then reads it itself (a TLS one's records are
     * decrypted by its loop).
     */
    volatile boolean direct;
    /** What the loop wants the connection to wait for (its key's interest, unless a reading thread turned it off). */
    int interest;
    /** Counted down once when a connect opened ahead of the load is done, or has failed. */
    java.util.concurrent.CountDownLatch settled;

    void settle() {
        if (settled != null) {
            settled.countDown();
            settled = null;
        }
    }

    Http1Connection(final Http1Origin origin, final SocketChannel channel, final int maxHeadBytes) {
        this.origin = origin;
        this.channel = channel;
        this.reader = new Http1ResponseReader(maxHeadBytes);
    }

    /** Why a redirect to {@code location} was refused outright, or null (see {@link Redirects#refusal}). */
    private String refusal(final int status, final String location) {
        if (status != 307 && status != 308) {
            return null;
        }
        try {
            return Redirects.refusal(current.request, current.request.uri().resolve(location.trim()));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public void head(final int status, final String reason, final String mimeType, final long nanos) {
        final String location = reader.location();
        if (location != null && status >= 300 && status < 400) {
            redirect = Redirects.followed(current, status, location);
            if (redirect != null) {
                return;
            }
            current.collector.redirectedTo(location, refusal(status, location));
        }
        current.collector.begin(status, reason, mimeType, nanos, reader.announcedLength());
    }

    @Override
    public void body(final ByteBuffer bytes, final boolean end, final long nanos) throws IOException {
        if (redirect != null) {
            bytes.position(bytes.limit()); // a followed redirect's body is nobody's answer
            return;
        }
        current.collector.receive(bytes, end, nanos);
    }
}
