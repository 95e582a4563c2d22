package io.aiperf.engine.mock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A small non-blocking HTTP/1.1 server for the mock: a few event loops, keep-alive, Content-Length request
 * bodies, and responses that are either immediate or a schedule of chunks written at absolute deadlines.
 * Deadlines are kept by parking the loop for the last millisecond, so chunks leave within ~0.1 ms of their
 * time. Written for the mock (it is the bottleneck of no benchmark), not as a general server. Thread-safe
 * to start and close; handlers run on the loop threads.
 * <p>
 * It is over 400 lines because its event loop, keep-alive parsing and deadline-scheduled writes share each loop's
 * state; it is the mock's own server, not a general one.
 */
final class MiniHttpServer implements AutoCloseable {
    /** Turns a request into a response; runs on an event-loop thread and must not block. */
    interface Handler {
        Response handle(Request request);
    }

    /** A parsed request; header names are lower case. */
    record Request(String method, String path, String query, Map<String, String> headers, byte[] body,
                   long arrivalNanos) {
    }

    /** One piece of a scheduled response: bytes to write at a time, or a connection drop. */
    record Step(long atNanos, byte[] bytes, boolean drop) {
    }

    /**
     * What to send: {@code steps} in order (the first normally carries the head), then {@code onDone}; then the
     * connection is closed ({@code close}), kept for the next request, or ended as {@code ending} says.
     */
    record Response(List<Step> steps, boolean close, Runnable onDone, Ending ending) {
        Response(final List<Step> steps, final boolean close, final Runnable onDone) {
            this(steps, close, onDone, null);
        }
    }

    /**
     * How a server that ends connections after its answers does it: half-closed (its FIN sent at once, later
     * requests still read and never answered), or closed {@code afterNanos} later without reading anything more
     * (a request that arrived meanwhile draws a reset).
     */
    record Ending(boolean halfClose, long afterNanos) {
    }

    private static final byte[] CRLF = {'\r', '\n'};
    private static final long SPIN_NANOS = 1_500_000L;
    private static final long PARK_SLICE_NANOS = 200_000L;
    private final ServerSocketChannel server;
    private final Loop[] loops;
    private final Handler handler;
    private volatile boolean running = true;
    private int nextLoop;
    /** Connections accepted so far (what a client opened, for tests that bound it). */
    private final AtomicLong accepted = new AtomicLong();

    MiniHttpServer(final String host, final int port, final int threads, final Handler handler) throws IOException {
        this.handler = handler;
        this.server = ServerSocketChannel.open();
        server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        server.bind(new InetSocketAddress(host, port), 4096);
        server.configureBlocking(false);
        this.loops = new Loop[threads];
        for (int i = 0; i < threads; i++) {
            loops[i] = new Loop(i);
        }
        server.register(loops[0].selector, SelectionKey.OP_ACCEPT);
        for (final Loop l : loops) {
            l.thread.start();
        }
    }

    long accepted() {
        return accepted.get();
    }

    int port() {
        return ((InetSocketAddress) server.socket().getLocalSocketAddress()).getPort();
    }

    /** The event loops' threads. */
    int loopCount() {
        return loops.length;
    }

    /** CPU time the event loops have used so far, in nanoseconds (-1 where the JVM cannot tell). */
    long loopCpuNanos() {
        final java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        if (!threads.isThreadCpuTimeSupported()) {
            return -1;
        }
        long sum = 0;
        for (final Loop l : loops) {
            final long t = threads.getThreadCpuTime(l.thread.getId());
            if (t < 0) {
                return -1;
            }
            sum += t;
        }
        return sum;
    }

    @Override
    public void close() {
        running = false;
        for (final Loop l : loops) {
            l.selector.wakeup();
            try {
                l.thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private static volatile long dateSecond = -1;
    private static volatile String dateText = "";

    /** The {@code Date} header value (RFC 1123), formatted once per second, as servers do. */
    static String date() {
        final long now = System.currentTimeMillis() / 1000;
        if (now != dateSecond) {
            dateText = java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
                    java.time.ZonedDateTime.ofInstant(java.time.Instant.ofEpochSecond(now), java.time.ZoneOffset.UTC));
            dateSecond = now;
        }
        return dateText;
    }

    /** Head of a response. */
    /**
     * The answer to a HEAD request: the head the GET would get (its Content-Length too), no body. A body after it
     * would be read as the next answer on a kept-alive connection (aiohttp, which upstream AIPerf's server-metrics
     * reachability check uses, fails so).
     */
    static Response headOnly(final Response r) {
        for (final Step step : r.steps()) {
            if (step.bytes() == null) {
                continue;
            }
            final byte[] b = step.bytes();
            for (int i = 3; i < b.length; i++) {
                if (b[i] == '\n' && b[i - 1] == '\r' && b[i - 2] == '\n' && b[i - 3] == '\r') {
                    return new Response(List.of(new Step(step.atNanos(), java.util.Arrays.copyOf(b, i + 1), false)),
                            r.close(), r.onDone(), r.ending());
                }
            }
            break;
        }
        return r;
    }

    static byte[] head(final int status, final String contentType, final long contentLength, final boolean close) {
        return head(status, contentType, contentLength, close, null);
    }

    /** Head of a response with one more header line ({@code Name: value}), or none when null. */
    static byte[] head(final int status, final String contentType, final long contentLength, final boolean close,
                       final String extraHeader) {
        final StringBuilder sb = new StringBuilder(128);
        sb.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
        sb.append("Server: aiperf-java-mock\r\n");
        sb.append("Date: ").append(date()).append("\r\n");
        sb.append("Content-Type: ").append(contentType).append("\r\n");
        if (contentLength >= 0) {
            sb.append("Content-Length: ").append(contentLength).append("\r\n");
        } else {
            sb.append("Transfer-Encoding: chunked\r\nCache-Control: no-cache\r\n");
        }
        if (close) {
            sb.append("Connection: close\r\n");
        }
        if (extraHeader != null) {
            sb.append(extraHeader).append("\r\n");
        }
        sb.append("\r\n");
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** One chunk of a chunked body. */
    static byte[] chunk(final byte[] data) {
        final byte[] size = Integer.toHexString(data.length).getBytes(StandardCharsets.ISO_8859_1);
        final byte[] out = new byte[size.length + 2 + data.length + 2];
        System.arraycopy(size, 0, out, 0, size.length);
        System.arraycopy(CRLF, 0, out, size.length, 2);
        System.arraycopy(data, 0, out, size.length + 2, data.length);
        System.arraycopy(CRLF, 0, out, size.length + 2 + data.length, 2);
        return out;
    }

    static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

    static String reason(final int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 409 -> "Conflict";
            case 411 -> "Length Required";
            case 423 -> "Locked";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            default -> "Status " + status;
        };
    }

    private final class Loop implements Runnable {
        final Selector selector;
        final Thread thread;
        final ConcurrentLinkedQueue<SocketChannel> incoming = new ConcurrentLinkedQueue<>();
        final PriorityQueue<Timed> timers = new PriorityQueue<>();
        final AtomicLong seq = new AtomicLong();
        long readAtNanos;

        Loop(final int index) throws IOException {
            this.selector = Selector.open();
            this.thread = new Thread(this, "mock-loop-" + index);
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            while (running) {
                try {
                    waitForWork();
                    // One stamp per wake-up: requests that arrived together are timed from when they arrived,
                    // not from when this loop got round to parsing each of them.
                    readAtNanos = System.nanoTime();
                    final Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                    while (it.hasNext()) {
                        final SelectionKey key = it.next();
                        it.remove();
                        handleKey(key);
                    }
                    registerIncoming();
                    fireTimers();
                } catch (IOException e) {
                    // a broken selector only ends this loop's connections
                }
            }
            for (final SelectionKey k : selector.keys()) {
                closeQuietly(k);
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }

        private void waitForWork() throws IOException {
            final Timed next = timers.peek();
            if (next == null) {
                selector.select();
                return;
            }
            final long wait = next.at - System.nanoTime();
            if (wait > SPIN_NANOS) {
                selector.select(Math.max(1, (wait - SPIN_NANOS) / 1_000_000L));
            } else if (selector.selectNow() == 0 && wait > 0) {
                // epoll waits in whole milliseconds: close to a deadline, park in short slices and keep
                // polling, so neither the deadline nor a newly arrived request waits more than a slice.
                LockSupport.parkNanos(Math.min(wait, PARK_SLICE_NANOS));
            }
        }

        private void registerIncoming() throws IOException {
            SocketChannel ch;
            while ((ch = incoming.poll()) != null) {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.register(selector, SelectionKey.OP_READ, new Conn(ch, this));
            }
        }

        private void fireTimers() {
            final long now = System.nanoTime();
            Timed t;
            while ((t = timers.peek()) != null && t.at <= now) {
                timers.poll();
                t.conn.runStep(t);
            }
        }

        private void handleKey(final SelectionKey key) {
            try {
                if (!key.isValid()) {
                    return;
                }
                if (key.isAcceptable()) {
                    SocketChannel ch;
                    while ((ch = server.accept()) != null) {
                        accepted.incrementAndGet();
                        final Loop target = loops[nextLoop++ % loops.length];
                        target.incoming.add(ch);
                        if (target != this) {
                            target.selector.wakeup();
                        }
                    }
                    return;
                }
                final Conn conn = (Conn) key.attachment();
                if (key.isReadable()) {
                    conn.read(key);
                }
                if (key.isValid() && key.isWritable()) {
                    conn.flush(key);
                }
            } catch (IOException | RuntimeException e) {
                closeQuietly(key);
            }
        }

        void schedule(final Conn conn, final Response response, final int index) {
            timers.add(new Timed(response.steps().get(index).atNanos(), seq.incrementAndGet(), conn, response, index));
        }
    }

    private static void closeQuietly(final SelectionKey key) {
        key.cancel();
        try {
            key.channel().close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    private record Timed(long at, long seq, Conn conn, Response response, int index) implements Comparable<Timed> {
        @Override
        public int compareTo(final Timed o) {
            final int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private final class Conn {
        final SocketChannel ch;
        final Loop loop;
        ByteBuffer in = ByteBuffer.allocate(16 * 1024);
        final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
        boolean busy;
        boolean closeAfterWrite;
        boolean closed;
        /** The connection is closed a while after the answer, reading nothing until then. */
        boolean closingLater;
        /** The answer's end is followed by a FIN; what the client writes after it is read and dropped. */
        boolean halfCloseAfterWrite;
        boolean halfClosed;

        Conn(final SocketChannel ch, final Loop loop) {
            this.ch = ch;
            this.loop = loop;
        }

        void read(final SelectionKey key) throws IOException {
            final int n = ch.read(in);
            if (n < 0) {
                closeQuietly(key);
                closed = true;
                return;
            }
            if (halfClosed) {
                in.clear(); // taken, never answered
                return;
            }
            if (!in.hasRemaining()) {
                final ByteBuffer bigger = ByteBuffer.allocate(in.capacity() * 2);
                in.flip();
                bigger.put(in);
                in = bigger;
            }
            parse();
        }

        /** Parses and serves whole requests from the buffer, one at a time. */
        void parse() throws IOException {
            while (!busy && !closed) {
                final byte[] buf = in.array();
                final int len = in.position();
                int headEnd = -1;
                for (int i = 3; i < len; i++) {
                    if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r') {
                        headEnd = i + 1;
                        break;
                    }
                }
                if (headEnd < 0) {
                    return;
                }
                final long arrival = Math.min(System.nanoTime(), loop.readAtNanos);
                final String head = new String(buf, 0, headEnd, StandardCharsets.ISO_8859_1);
                final String[] lines = head.split("\r\n");
                final String[] requestLine = lines[0].split(" ");
                final Map<String, String> headers = new HashMap<>();
                for (int i = 1; i < lines.length; i++) {
                    final int colon = lines[i].indexOf(':');
                    if (colon > 0) {
                        headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                                lines[i].substring(colon + 1).trim());
                    }
                }
                int bodyLength = 0;
                if (headers.containsKey("content-length")) {
                    bodyLength = Integer.parseInt(headers.get("content-length"));
                } else if (headers.containsKey("transfer-encoding")) {
                    enqueue(head(411, "application/json", 2, true), true);
                    return;
                }
                if (len < headEnd + bodyLength) {
                    if (in.capacity() < headEnd + bodyLength) {
                        final ByteBuffer bigger = ByteBuffer.allocate(headEnd + bodyLength);
                        in.flip();
                        bigger.put(in);
                        in = bigger;
                    }
                    return;
                }
                final byte[] body = java.util.Arrays.copyOfRange(buf, headEnd, headEnd + bodyLength);
                final int consumed = headEnd + bodyLength;
                System.arraycopy(buf, consumed, buf, 0, len - consumed);
                in.position(len - consumed);
                final String target = requestLine.length > 1 ? requestLine[1] : "/";
                final int q = target.indexOf('?');
                final Request request = new Request(requestLine[0], q < 0 ? target : target.substring(0, q),
                        q < 0 ? null : target.substring(q + 1), headers, body, arrival);
                final Response answer = handler.handle(request);
                final Response response = "HEAD".equals(request.method()) ? headOnly(answer) : answer;
                busy = true;
                closeAfterWrite = response.close() || "close".equalsIgnoreCase(headers.get("connection"));
                loop.schedule(this, response, 0);
                loop.fireTimers();
            }
        }

        void runStep(final Timed t) {
            if (closed) {
                return;
            }
            final Step step = t.response().steps().get(t.index());
            if (step.drop()) {
                if (t.response().onDone() != null) {
                    t.response().onDone().run();
                }
                drop();
                return;
            }
            try {
                final boolean last = t.index() == t.response().steps().size() - 1;
                final Ending ending = last ? t.response().ending() : null;
                halfCloseAfterWrite = ending != null && ending.halfClose();
                closingLater = ending != null && !ending.halfClose();
                if (last && t.response().onDone() != null) {
                    // Before the last bytes go: a client that reads them may call an admin route at once (the
                    // profiler's start after a warmup), and the events must keep the order the client saw.
                    t.response().onDone().run();
                }
                enqueue(step.bytes(), last && closeAfterWrite);
                if (last) {
                    busy = ending != null; // a connection being ended reads no further request
                    if (ending != null && !ending.halfClose()) {
                        loop.schedule(this, new Response(List.of(new Step(System.nanoTime() + ending.afterNanos(),
                                null, true)), true, null), 0);
                    } else if (!closed) {
                        parse();
                    }
                } else {
                    loop.schedule(this, t.response(), t.index() + 1);
                }
            } catch (IOException | RuntimeException e) {
                drop();
            }
        }

        private void drop() {
            closed = true;
            final SelectionKey key = ch.keyFor(loop.selector);
            if (key != null) {
                closeQuietly(key);
            } else {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // already gone
                }
            }
        }

        void enqueue(final byte[] bytes, final boolean thenClose) throws IOException {
            out.add(ByteBuffer.wrap(bytes));
            if (thenClose) {
                closeAfterWrite = true;
                closed = true; // no more requests on this connection
            }
            flush(ch.keyFor(loop.selector));
        }

        void flush(final SelectionKey key) throws IOException {
            while (!out.isEmpty()) {
                final ByteBuffer b = out.peek();
                ch.write(b);
                if (b.hasRemaining()) {
                    key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    return;
                }
                out.poll();
            }
            if (key != null && key.isValid()) {
                // A connection to be closed later reads nothing more: a request that arrives meanwhile stays unread
                // in the socket, so the close resets it, as a server's close does.
                key.interestOps(closingLater ? 0 : SelectionKey.OP_READ);
            }
            if (closeAfterWrite && closed) {
                closeQuietly(key);
            } else if (halfCloseAfterWrite && !halfClosed) {
                halfClosed = true;
                ch.shutdownOutput();
            }
        }
    }
}
