package io.aiperf.engine.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * TLS between a non-blocking socket and the HTTP/1.1 reader and writer: the handshake in steps, then reads that hand
 * on plaintext and writes that encrypt. The reader above sees the same bytes as on a plain socket. Not thread-safe:
 * one per connection, on the thread that owns it.
 */
final class TlsSession {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    private final SSLEngine engine;
    private final SocketChannel channel;
    /** Encrypted bytes read and not yet decrypted (write mode). */
    private ByteBuffer netIn;
    /** Encrypted bytes not yet written (read mode). */
    private ByteBuffer netOut;
    /** Decrypted bytes not yet handed on (read mode). */
    private ByteBuffer appIn;
    /** The largest record's plaintext; refreshed once the handshake has settled the session. */
    private int appBufferSize;
    private boolean started;
    private boolean ended;
    /** The last read stopped with decrypted bytes left, or with the end seen: read again without waiting. */
    private boolean more;

    TlsSession(final SSLEngine engine, final SocketChannel channel) {
        this.engine = engine;
        this.channel = channel;
        netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        netOut = ByteBuffer.allocate(engine.getSession().getPacketBufferSize()).flip();
        appBufferSize = engine.getSession().getApplicationBufferSize();
        appIn = ByteBuffer.allocate(appBufferSize).flip();
    }

    /** Takes the handshake as far as the socket allows; true once it is done. */
    boolean handshake() throws IOException {
        if (!started) {
            engine.beginHandshake();
            started = true;
        }
        while (true) {
            if (!flush()) {
                return false;
            }
            switch (engine.getHandshakeStatus()) {
                case NEED_WRAP -> wrap(EMPTY);
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    if (!unwrap(null)) {
                        if (ended) {
                            throw new SSLException("the server closed the connection during the TLS handshake");
                        }
                        return false;
                    }
                }
                case NEED_TASK -> runTasks();
                default -> {
                    appBufferSize = engine.getSession().getApplicationBufferSize();
                    return true;
                }
            }
        }
    }

    /** What the handshake waits for: {@link SelectionKey#OP_WRITE} while bytes are unsent, else a read. */
    int interest() {
        return netOut.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ;
    }

    /** The TLS version agreed on ({@code TLSv1.3}). */
    String version() {
        return engine.getSession().getProtocol();
    }

    /** The protocol ALPN agreed on, or null when the server chose none. */
    String alpn() {
        final String p = engine.getApplicationProtocol();
        return p == null || p.isEmpty() ? null : p;
    }

    /**
     * Reads plaintext into {@code dst}, as {@link SocketChannel#read} does: the bytes read, 0 when none are there
     * yet, -1 at the end of the connection.
     */
    int read(final ByteBuffer dst) throws IOException {
        more = false;
        final int start = dst.position();
        drain(dst);
        while (dst.hasRemaining() && !ended) {
            if (!unwrap(dst)) {
                break;
            }
            drain(dst);
        }
        final int n = dst.position() - start;
        more = appIn.hasRemaining() || (ended && n > 0);
        return n == 0 && ended ? -1 : n;
    }

    /** Whether decrypted bytes (or the end) wait for another {@link #read} that no readiness will announce. */
    boolean more() {
        return more;
    }

    /** Encrypts and writes from {@code src} as far as the socket takes it; check {@link #flushed()} for the rest. */
    void write(final ByteBuffer src) throws IOException {
        while (flush() && src.hasRemaining()) {
            wrap(src);
        }
    }

    /** Whether every encrypted byte went to the socket. */
    boolean flushed() {
        return !netOut.hasRemaining();
    }

    /** Writes pending encrypted bytes; false when the socket is full. */
    private boolean flush() throws IOException {
        while (netOut.hasRemaining()) {
            if (channel.write(netOut) == 0) {
                return false;
            }
        }
        return true;
    }

    private void wrap(final ByteBuffer src) throws IOException {
        netOut.clear();
        try {
            final SSLEngineResult r = engine.wrap(src, netOut);
            switch (r.getStatus()) {
                case BUFFER_OVERFLOW -> netOut = ByteBuffer.allocate(netOut.capacity() * 2);
                case CLOSED -> throw new SSLException("TLS connection closed");
                default -> {
                    // sent below
                }
            }
        } finally {
            netOut.flip();
        }
        if (engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
            runTasks();
        }
    }

    /**
     * Decrypts one record from what was read, reading the socket when a record is incomplete; into {@code dst} when
     * it has room for any record, else into {@link #appIn}.
     *
     * @return false when the socket has no more bytes for now (or the connection ended)
     */
    private boolean unwrap(final ByteBuffer dst) throws IOException {
        while (true) {
            final boolean direct = dst != null && !appIn.hasRemaining() && dst.remaining() >= appBufferSize;
            final SSLEngineResult r;
            netIn.flip();
            if (direct) {
                try {
                    r = engine.unwrap(netIn, dst);
                } finally {
                    netIn.compact();
                }
            } else {
                appIn.compact();
                try {
                    r = engine.unwrap(netIn, appIn);
                } finally {
                    netIn.compact();
                    appIn.flip();
                }
            }
            switch (r.getStatus()) {
                case OK -> {
                    afterUnwrap(r);
                    return true;
                }
                case BUFFER_OVERFLOW -> {
                    appBufferSize = engine.getSession().getApplicationBufferSize();
                    appIn = grow(appIn, appBufferSize);
                }
                case CLOSED -> {
                    ended = true;
                    return false;
                }
                default -> { // BUFFER_UNDERFLOW: a record is incomplete
                    if (!netIn.hasRemaining()) {
                        netIn.flip();
                        netIn = ByteBuffer.allocate(netIn.capacity() * 2).put(netIn);
                    }
                    final int n = channel.read(netIn);
                    if (n < 0) {
                        if (netIn.position() == 0) {
                            ended = true;
                            return false;
                        }
                        throw new SSLException("the connection ended inside a TLS record");
                    }
                    if (n == 0) {
                        return false;
                    }
                }
            }
        }
    }

    /** A post-handshake message may need an answer (a key update) or a task. */
    private void afterUnwrap(final SSLEngineResult r) throws IOException {
        SSLEngineResult.HandshakeStatus hs = r.getHandshakeStatus();
        while (hs == SSLEngineResult.HandshakeStatus.NEED_TASK || hs == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
            if (hs == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                runTasks();
            } else if (flush()) {
                wrap(EMPTY);
            } else {
                return; // the answer goes out with the next write
            }
            hs = engine.getHandshakeStatus();
        }
    }

    /** Hands on decrypted bytes left from an earlier record. */
    private void drain(final ByteBuffer dst) {
        if (appIn.hasRemaining()) {
            final int n = Math.min(appIn.remaining(), dst.remaining());
            final int limit = appIn.limit();
            appIn.limit(appIn.position() + n);
            dst.put(appIn);
            appIn.limit(limit);
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    /** A larger buffer with the same unread bytes (read mode). */
    private static ByteBuffer grow(final ByteBuffer b, final int atLeast) {
        final ByteBuffer bigger = ByteBuffer.allocate(Math.max(b.capacity() * 2, b.remaining() + atLeast));
        return bigger.put(b).flip();
    }
}
