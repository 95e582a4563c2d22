package io.aiperf.engine.client;

import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.time.Clock;
import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.core5.http.ConnectionClosedException;

/**
 * One event-loop thread of the lean HTTP/1.1 transport: a selector over its own keep-alive connections. Every read
 * is stamped the moment it returns, before its bytes are parsed. Requests handed over from other threads (and from
 * this one) queue as tasks, so a completion that sends the next request never re-enters the loop. Requests wait
 * in order for a connection when the loop's share of the pool is busy. Idle connections stay registered, so a
 * connection the server closed while idle is dropped when that happens, not found dead by the next request. Once it
 * carries a streamed request ({@link ReadingThread}), a reading thread owns its selector and hands it the reads and
 * their stamps ({@link Http1Reader}, {@link ReadHandOff}); the loop then waits parked, not in the selector.
 * <p>
 * It is over 400 lines because the selector loop, connection reuse, the wait queue for connections and the
 * timestamping of every read share one thread's state, and splitting them would put that state behind calls on the
 * hot path.
 */
final class Http1Loop implements Runnable {
    private static final long CONNECT_TIMEOUT_NANOS = 30_000_000_000L;
    private static final long IDLE_PROBE_AFTER_NANOS = 100_000_000L;
    private static final int MAX_PARALLEL_CONNECTS = 64;
    /** An idle connection that ends this soon after its answer was closed because of the answer, not for idling. */
    private static final long CLOSE_AFTER_RESPONSE_NANOS = 500_000_000L;
    /** The hand-off to a reading thread: 16 batches of 64 KiB, 1 MiB per loop, at most 256 reads per batch. */
    private static final int HAND_OFF_BATCHES = 16;
    private static final int HAND_OFF_BATCH_BYTES = 64 * 1024;
    private static final int HAND_OFF_BATCH_READS = 256;

    private final Selector selector;
    private final Thread thread;
    private final Clock clock;
    private final int maxConnections;
    private final ReuseGuard guard;
    private final int maxHeadBytes;
    private final java.util.function.Function<java.net.URI, Http1Origin> origins;
    /** Connections kept for their conversation's next turn (sticky-user-sessions), oldest first. */
    private final Map<String, Http1Connection> sessions = new java.util.LinkedHashMap<>();
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /**
     * At most this many tasks run between two looks at the sockets. A closed loop's first wave hands over all its
     * requests at once: written in one go (16,667 took 4 s on a crowded machine), no answer was read until the last
     * was out, and the first tokens that came meanwhile were stamped seconds late (bench/history/analyses-2026-12.md,
     * part 8).
     */
    private static final int TASKS_PER_TURN = 64;
    /** True while the loop is awake, so handing over a task needs no selector wake-up. */
    private final AtomicBoolean awake = new AtomicBoolean(true);
    private final ArrayDeque<Http1Exchange> waiting = new ArrayDeque<>();
    /**
     * Requests with a deadline, earliest first, linked through the requests themselves: timing a request costs no
     * allocation, no lock and no timer thread, and a finished request leaves the list at once.
     */
    private Http1Exchange earliest;
    private Http1Exchange latest;
    private final Map<Http1Origin, ArrayDeque<Http1Connection>> idle = new HashMap<>();
    private final List<Http1Connection> connecting = new ArrayList<>();
    /** Scratch for probing an idle connection. */
    private final ByteBuffer readBuffer = ByteBuffer.allocate(64 * 1024);
    /**
     * The reads of one wake-up, side by side: every ready connection is read and stamped first, then their bytes
     * are parsed and their requests completed. A connection's stamp then does not wait for the parsing and the
     * completions of the connections read before it (at 64 streams, finishing together, that was milliseconds).
     */
    private final ByteBuffer arena = ByteBuffer.allocate(256 * 1024);
    private final ByteBuffer view = ByteBuffer.wrap(arena.array());
    private Http1Connection[] readFrom = new Http1Connection[64];
    private int[] readStart = new int[64];
    private int[] readCount = new int[64];
    private long[] readAt = new long[64];
    private int reads;
    /** TLS connections whose last read left decrypted bytes that no readiness will announce. */
    private final List<Http1Connection> readAgain = new ArrayList<>();
    private final Http1RequestWriter writer = new Http1RequestWriter();
    private int open;
    /**
     * Requests were handed over that the idle connections could not all take. They are served after the reads of
     * the next wake-up, not at once: answers that have arrived meanwhile free their connections first, so a backlog
     * of requests (after the loop was starved of CPU) takes the connections its own answers free instead of opening
     * one connect after another while those answers sit unread. Requests that idle connections can take are written
     * at once: deferring those too held a closed loop's next requests back by a whole wake-up's reads (P1 at 500
     * connections fell to a third of wrk, bench/history/analyses-2026-12.md).
     */
    private boolean handedOver;
    /**
     * Growing ahead of an open loop's demand: this many connections to each origin are kept idle or connecting at
     * all times (empty: off), so a burst finds them open instead of waiting for connects.
     */
    private final Map<Http1Origin, Integer> spares = new java.util.LinkedHashMap<>();
    /** After a spare's connect failed, no spare is opened before this time (the requests report the problem). */
    private long sparesAfterNanos;
    private boolean growing;
    /** Connections this loop opened (read by other threads: written with release semantics, one writer). */
    private final java.util.concurrent.atomic.AtomicLong opened = new java.util.concurrent.atomic.AtomicLong();
    /** Answers read to their end, and the sum of their times from written request to end (for Little's law). */
    private final java.util.concurrent.atomic.AtomicLong answered = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong answeredNanos = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean running = true;
    /** Why the loop failed ({@link #failAll}): the outcome of the requests still queued then. */
    private IOException failure;
    /** When a reading thread takes the reads off this loop. */
    private final ReadingThread readingThread;
    /**
     * The reading thread, once started: from then on it owns the selector, and this loop takes its reads from
     * {@link #handOff} and waits for them (and for tasks) parked instead of in the selector.
     */
    private volatile Http1Reader reader;
    private ReadHandOff handOff;
    /** Every connection of this loop, open or opening (the selector's key set is the reading thread's). */
    private final java.util.Set<Http1Connection> connections = new java.util.HashSet<>();

    /**
     * @param origins resolves a URL to its origin (a blocking lookup: called off the loop, for redirects)
     */
    Http1Loop(final String name, final Clock clock, final int maxConnections, final ReuseGuard guard,
              final int maxHeadBytes, final java.util.function.Function<java.net.URI, Http1Origin> origins)
            throws IOException {
        this.origins = origins;
        this.selector = Selector.open();
        this.clock = clock;
        this.maxConnections = maxConnections;
        this.guard = guard;
        this.maxHeadBytes = maxHeadBytes;
        this.readingThread = ReadingThread.configured();
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
    }

    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Runs {@code task} on the loop, after whatever it is doing now. */
    void execute(final Runnable task) {
        tasks.add(task);
        if (!inLoop() && !HandOverBatch.defers(this) && awake.compareAndSet(false, true)) {
            wake();
        }
    }

    /** Wakes the loop unless it is awake (the end of a {@link HandOverBatch}). */
    void wakeIfAsleep() {
        if (awake.compareAndSet(false, true)) {
            wake();
        }
    }

    /** Wakes the loop from its wait: the selector's, or its park once a reading thread owns the selector. */
    private void wake() {
        if (reader == null) {
            selector.wakeup();
        } else {
            java.util.concurrent.locks.LockSupport.unpark(thread);
        }
    }

    /** Hands a request to this loop. */
    void submit(final Http1Exchange exchange) {
        if (!running) {
            if (exchange.finish()) {
                exchange.callback.failed(new IOException("the HTTP transport is closed"));
            }
            return;
        }
        execute(() -> {
            if (!running) {
                // The loop is ending with this task still queued (its last turn runs every one left): not written.
                if (finished(exchange)) {
                    if (failure != null) {
                        exchange.callback.failed(failure);
                    } else {
                        exchange.callback.cancelled();
                    }
                }
                return;
            }
            if (!exchange.isCancelled()) {
                if (reader == null && readingThread.startsFor(exchange.request.streaming(),
                        !ConnectionSetup.needed(exchange.origin))) {
                    startReading();
                }
                time(exchange);
                waiting.add(exchange);
                if (idleCount(exchange.origin) >= waiting.size() || sessions.containsKey(exchange.correlationId)) {
                    serveWaiting(); // connections are there for all of them: written at once
                } else {
                    handedOver = true; // served after this wake-up's reads (run)
                }
            }
        });
    }

    @Override
    public void run() {
        try {
            if (readingThread == ReadingThread.ALWAYS) {
                startReading();
            }
            while (running) {
                runTasks(TASKS_PER_TURN);
                awake.set(false);
                if (reader == null) {
                    if (tasks.isEmpty() && !handedOver) {
                        selector.select(selectTimeoutMillis());
                    } else {
                        selector.selectNow();
                    }
                    awake.set(true);
                    handleSelected();
                } else {
                    if (tasks.isEmpty() && !handedOver && !handOff.pending()) {
                        java.util.concurrent.locks.LockSupport.parkNanos(this, selectTimeoutMillis() * 1_000_000L);
                    }
                    awake.set(true);
                    takeReads();
                }
                consumeReads();
                while (!readAgain.isEmpty()) {
                    readBuffered();
                    consumeReads();
                }
                if (handedOver) {
                    handedOver = false;
                    serveWaiting();
                }
                if (!connecting.isEmpty()) {
                    expireConnects();
                }
                if (earliest != null) {
                    expireRequests();
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            // Nothing may escape silently: every request still on this loop gets its outcome below.
            failAll(new IOException("HTTP event loop failed: " + e, e));
        } finally {
            running = false;
            if (reader != null) {
                reader.stop(); // before the connections and the selector close under it
            }
            runTasks(Integer.MAX_VALUE);
            shutdown();
        }
    }

    /**
     * Hands the selector to a reading thread that only reads and stamps; called on the loop between two
     * wake-ups, when no selected key is left to handle.
     */
    private void startReading() {
        handOff = new ReadHandOff(HAND_OFF_BATCHES, HAND_OFF_BATCH_BYTES, HAND_OFF_BATCH_READS, () -> {
            if (awake.compareAndSet(false, true)) {
                java.util.concurrent.locks.LockSupport.unpark(thread);
            }
        });
        final Http1Reader r = new Http1Reader(thread.getName() + "-reads", selector, clock, handOff);
        reader = r;
        r.start();
    }

    /** The reads the reading thread handed over, in the order it made them. */
    private void takeReads() throws IOException {
        ReadHandOff.Batch batch;
        while ((batch = handOff.next()) != null) {
            try {
                for (int i = 0; i < batch.size; i++) {
                    take(batch, i);
                }
            } finally {
                handOff.release(batch);
            }
        }
        final Throwable failed = reader.failure();
        if (failed != null) {
            throw new IOException("HTTP reading thread failed: " + failed, failed);
        }
    }

    /** One entry of a batch: a read to parse, a failed read, or events the loop handles itself. */
    private void take(final ReadHandOff.Batch batch, final int i) {
        final Http1Connection c = batch.from[i];
        if (c.closed) {
            return; // failed or closed since it was read
        }
        if (batch.ready[i] != 0) {
            handle(c, c.key, batch.ready[i]);
            // Its own reads (TLS) are parsed before its events are on again: a connection's bytes stay in order.
            consumeReads();
            while (!readAgain.isEmpty()) {
                readBuffered();
                consumeReads();
            }
            if (!c.closed) {
                interest(c, c.interest);
            }
            return;
        }
        if (batch.error[i] != null) {
            fail(c, batch.error[i]);
            return;
        }
        final int n = batch.count[i];
        final long at = batch.at[i];
        if (c.current == null || (n > 0 && at < c.sentNanos)) {
            readWhileIdle(c, n, at);
            return;
        }
        consumeOne(c, batch.view, batch.start[i], n, at);
    }

    /**
     * Bytes (or the end) that arrived while the connection was idle: it is never reused. A request given to it
     * since then (a reading thread's read, parsed after the request was written) was written to a connection
     * already lost: it goes again, never read by the server. Out of line, as every rare path of the reads, so the
     * compiled code of the common one is not thrown away when it is first taken.
     */
    private void readWhileIdle(final Http1Connection c, final int n, final long at) {
        final Http1Exchange lost = c.current;
        if (n < 0 && c.reused) {
            endedBeforeAnswer(c, at, "it ended a kept-alive connection right after its answer");
        }
        c.current = null;
        close(c);
        if (lost != null) {
            failExchange(lost, closedBeforeAnswer());
            serveWaiting();
        }
    }

    /** What the loop wants {@code c} to wait for; a reading thread selecting is woken to take the change. */
    private void interest(final Http1Connection c, final int ops) {
        c.interest = ops;
        c.key.interestOps(ops);
        if (reader != null) {
            selector.wakeup();
        }
    }

    /** Runs the tasks handed over, at most {@code max} of them (the rest wait for the next turn). */
    private void runTasks(final int max) {
        Runnable task;
        for (int n = 0; n < max && (task = tasks.poll()) != null; n++) {
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                // A task is one request's business: it must not take the loop down with it.
                java.util.logging.Logger.getLogger(Http1Loop.class.getName()).warning("HTTP task failed: " + e);
            }
        }
    }

    private void handleSelected() {
        final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
            final SelectionKey key = keys.next();
            keys.remove();
            final Http1Connection c = (Http1Connection) key.attachment();
            if (!c.closed) {
                handle(c, key, key.isValid() ? key.readyOps() : 0);
            }
        }
    }

    private void handle(final Http1Connection c, final SelectionKey key, final int ready) {
        try {
            if (!key.isValid()) {
                throw new ConnectException("connection key cancelled");
            }
            if ((ready & SelectionKey.OP_CONNECT) != 0) {
                if (c.channel.finishConnect()) {
                    connected(c);
                }
                return;
            }
            if (c.setup != null) {
                setUp(c);
                return;
            }
            if ((ready & SelectionKey.OP_WRITE) != 0) {
                flush(c);
            }
            if ((ready & SelectionKey.OP_READ) != 0 && !c.closed) {
                read(c);
            }
        } catch (IOException e) {
            fail(c, e);
        } catch (RuntimeException | Error e) {
            // Fails this request only: the loop lives on for every other request on it.
            fail(c, new IOException("internal error while reading the response: " + e, e));
        }
    }

    /** Reads what a connection has and stamps it; its bytes are consumed once every ready connection is read. */
    private void read(final Http1Connection c) throws IOException {
        if (arena.remaining() < 16 * 1024) {
            consumeReads(); // the wake-up read more than the arena holds: consume what it has so far
        }
        final int start = arena.position();
        final int n = c.tls == null ? c.channel.read(arena) : c.tls.read(arena);
        final long now = clock.nanoTime(); // when the bytes arrived, before any parsing
        if (c.tls != null && c.tls.more()) {
            readAgain.add(c);
        }
        if (n == 0 && c.tls != null) {
            return; // TLS records without data (a session ticket): nothing for the reader, idle or not
        }
        if (c.current == null) {
            // An idle connection the server closed (or wrote to unasked): never reuse it. Closed now, so no
            // completion consumed below can hand it a request.
            arena.position(start);
            readWhileIdle(c, n, now);
            return;
        }
        if (reads == readFrom.length) {
            readFrom = java.util.Arrays.copyOf(readFrom, reads * 2);
            readStart = java.util.Arrays.copyOf(readStart, reads * 2);
            readCount = java.util.Arrays.copyOf(readCount, reads * 2);
            readAt = java.util.Arrays.copyOf(readAt, reads * 2);
        }
        readFrom[reads] = c;
        readStart[reads] = start;
        readCount[reads] = n;
        readAt[reads] = now;
        reads++;
    }

    /** Reads again the TLS connections that hold decrypted bytes from their last read. */
    private void readBuffered() {
        final List<Http1Connection> again = List.copyOf(readAgain);
        readAgain.clear();
        for (final Http1Connection c : again) {
            if (c.closed) {
                continue;
            }
            try {
                read(c);
            } catch (IOException e) {
                fail(c, e);
            }
        }
    }

    /** Parses the reads of this wake-up in the order they were made, completing the requests they end. */
    private void consumeReads() {
        for (int i = 0; i < reads; i++) {
            final Http1Connection c = readFrom[i];
            readFrom[i] = null;
            if (c.closed || c.current == null) {
                continue; // failed or closed since it was read
            }
            consumeOne(c, view, readStart[i], readCount[i], readAt[i]);
        }
        reads = 0;
        arena.clear();
    }

    /** Parses one read of {@code c} ({@code n} bytes of {@code bytes} from {@code start}, or -1 for its end). */
    private void consumeOne(final Http1Connection c, final ByteBuffer bytes, final int start, final int n,
                            final long now) {
        try {
            consume(c, bytes, start, n, now);
        } catch (IOException e) {
            fail(c, e);
        } catch (RuntimeException | Error e) {
            // Fails this request only: the loop lives on for every other request on it.
            fail(c, new IOException("internal error while reading the response: " + e, e));
        }
    }

    private void consume(final Http1Connection c, final ByteBuffer bytes, final int start, final int n,
                         final long now) throws IOException {
        if (n < 0) {
            ended(c, now);
            return;
        }
        final ByteBuffer in = bytes;
        in.clear().position(start).limit(start + n);
        if (c.reader.feed(in, now)) {
            // Bytes after the response's end were never asked for: the connection is not reusable.
            complete(c, c.reader.keepAlive() && !in.hasRemaining() && c.unwritten == null
                    && (c.tls == null || !c.tls.more()));
        }
    }

    /** The connection ended while it carried a request (out of line: rare, see {@link #readWhileIdle}). */
    private void ended(final Http1Connection c, final long now) throws IOException {
        if (!c.reader.started() && c.reused) {
            endedBeforeAnswer(c, now, "it ended a kept-alive connection right after its answer");
            throw closedBeforeAnswer();
        }
        if (c.reader.endOfInput(now)) {
            complete(c, false);
        } else {
            throw new IOException("unreachable: end of input not reported");
        }
    }

    private void complete(final Http1Connection c, final boolean reusable) {
        final Http1Exchange exchange = c.current;
        c.current = null;
        answered.lazySet(answered.get() + 1);
        answeredNanos.lazySet(answeredNanos.get() + (clock.nanoTime() - c.sentNanos));
        final java.net.URI redirect = c.redirect;
        c.redirect = null;
        if (c.reused) {
            guard.answeredOnReuse(c.origin.key());
        } else if (c.reader.closeAnnounced()) {
            closedAfterResponse(c.origin, "it answers Connection: close", true);
        }
        final boolean sticky = guard.strategy() == io.aiperf.engine.config.ConnectionReuse.STICKY_USER_SESSIONS;
        try {
            if (!reusable || !guard.mayReuse(c.origin.key())
                    || (sticky && redirect == null && exchange.request.lastTurn())) {
                close(c);
            } else if (sticky && redirect == null) {
                c.reused = true;
                c.idleSince = clock.nanoTime();
                c.session = exchange.correlationId;
                final Http1Connection before = sessions.put(c.session, c);
                if (before != null && before != c) {
                    close(before);
                }
            } else {
                c.reused = true;
                c.idleSince = clock.nanoTime();
                idle.computeIfAbsent(c.origin, o -> new ArrayDeque<>()).push(c);
            }
        } finally {
            if (redirect != null && !exchange.isDone()) {
                follow(exchange, redirect);
            } else if (finished(exchange)) {
                ResponseData result;
                try {
                    result = exchange.collector.result();
                } catch (RuntimeException | Error e) {
                    result = exchange.collector.failure(new IOException(
                            "internal error while reading the response: " + e, e));
                }
                exchange.callback.completed(result);
            }
        }
        serveWaiting();
    }

    /**
     * Sends {@code exchange} again, to a redirect's target: its origin is resolved off the loop (a new name would
     * block it), then the request waits for a connection like any other.
     */
    private void follow(final Http1Exchange exchange, final java.net.URI target) {
        exchange.redirects++;
        exchange.collector.countRedirect();
        guard.warnOnce("redirect", exchange.request.uri() + " answers with a redirect to " + target + ", which is "
                + "followed: each redirect adds a round trip to what is measured (client_health.transport.redirects)");
        java.util.concurrent.ForkJoinPool.commonPool().execute(() -> {
            final Http1Origin origin;
            try {
                origin = origins.apply(target);
            } catch (RuntimeException e) {
                execute(() -> failExchange(exchange, new IOException("cannot resolve " + target + ": " + e, e)));
                return;
            }
            execute(() -> {
                if (exchange.isDone() || exchange.isCancelled()) {
                    return;
                }
                exchange.request = exchange.request.to(target);
                exchange.origin = origin;
                waiting.add(exchange);
                serveWaiting();
            });
        });
    }

    /**
     * The origin closed a connection right after an answer: under {@code pooled} its connections are not reused
     * from now on, so this loop's idle ones that carried an answer are closed now.
     */
    private void closedAfterResponse(final Http1Origin origin, final String how, final boolean certain) {
        if (guard.closesAfterResponse(origin.key())) {
            return;
        }
        if (certain) {
            guard.sawCloseAfterResponse(origin.key(), how);
        } else {
            guard.sawEndAfterAnswer(origin.key(), how);
        }
        if (!guard.closesAfterResponse(origin.key())) {
            return;
        }
        final ArrayDeque<Http1Connection> free = idle.get(origin);
        if (free != null) {
            for (final Http1Connection c : List.copyOf(free)) {
                if (c.reused) {
                    close(c);
                }
            }
        }
        // Connections kept for a conversation's next turn race the same close: their next turns get new ones.
        for (final Http1Connection c : List.copyOf(sessions.values())) {
            if (c.origin.equals(origin)) {
                close(c);
            }
        }
    }

    /**
     * A reused connection ended (or refused a request) before any byte of the answer. Its request goes again on a
     * new connection, as curl and browsers do: whether the server read it cannot be told (a half-closed socket takes
     * bytes it will never answer). Ends this soon after the connection's last answer, a few of them and no answer on
     * a kept-alive connection ever, are the server closing after its answers: from then on each request to it gets a
     * connection of its own ({@link ReuseGuard#sawEndAfterAnswer}).
     */
    private void endedBeforeAnswer(final Http1Connection c, final long now, final String how) {
        if (now - c.idleSince < CLOSE_AFTER_RESPONSE_NANOS) {
            closedAfterResponse(c.origin, how, false);
        }
    }

    private static IOException closedBeforeAnswer() {
        return new org.apache.hc.core5.http.RequestNotExecutedException("The kept-alive connection was closed by the "
                + "server before any byte of the answer");
    }

    /**
     * Gives connections to waiting requests: an idle one to the same origin, or a new one while there is room; then
     * tops the spares up when the loop grows ahead of demand.
     */
    private void serveWaiting() {
        serveQueue();
        if (!spares.isEmpty()) {
            growAhead();
        }
    }

    private void serveQueue() {
        Http1Exchange next;
        while ((next = waiting.peek()) != null) {
            try {
                if (!assign(next)) {
                    return;
                }
            } catch (RuntimeException | Error e) {
                // That request fails; the ones behind it are still served.
                waiting.remove(next);
                final IOException cause = new IOException("internal error while sending the request: " + e, e);
                if (next.connection != null && next.connection.current == next) {
                    fail(next.connection, cause);
                } else {
                    failExchange(next, cause);
                }
            }
        }
    }

    /** One step for the first waiting request; false when it must wait for a connection to come free. */
    private boolean assign(final Http1Exchange next) {
        // A resend goes on a connection that carried no answer yet: a kept-alive one may have lost the same race.
        final boolean fresh = next.collector.retried();
        if (!fresh && !sessions.isEmpty()) {
            final Http1Connection kept = sessions.remove(next.correlationId);
            if (kept != null) {
                kept.session = null;
                if (kept.origin.equals(next.origin) && guard.mayReuse(kept.origin.key()) && !stale(kept)) {
                    waiting.poll();
                    start(kept, next);
                    return true;
                }
                close(kept);
            }
        }
        final ArrayDeque<Http1Connection> free = idle.get(next.origin);
        if (free != null && !free.isEmpty()) {
            final Http1Connection c = free.peek(); // taken only once it is known good, so a failure loses nothing
            if (c.reused && (fresh || !guard.mayReuse(c.origin.key()))) {
                close(c);
            } else if (!stale(c)) {
                free.pop();
                waiting.poll();
                start(c, next);
            }
            return true;
        }
        if (open < maxConnections) {
            // A waiting request is not tied to the connect it caused: it takes whichever connection is ready first,
            // a new one or one that a response just freed. Connects in progress are bounded by the requests
            // waiting (and a fixed cap), so a stall cannot snowball into thousands of connects.
            if (connecting.size() >= Math.min(waiting.size(), MAX_PARALLEL_CONNECTS)) {
                return false;
            }
            try {
                finishOpening(open(next.origin));
            } catch (IOException | RuntimeException e) {
                waiting.poll(); // this request fails with the reason; the next one tries again
                failExchange(next, e instanceof IOException io ? io : new ConnectException(e.toString()));
            }
            return true;
        }
        return closeOneIdle();
    }

    /**
     * Opens connections, marked as opened ahead, until each spare origin has its spares idle or connecting (the
     * connects in progress count for every origin), within the pool's share and the bound on parallel connects.
     */
    private void growAhead() {
        if (growing || (sparesAfterNanos != 0 && clock.nanoTime() < sparesAfterNanos)) {
            return;
        }
        growing = true; // a connect that completes at once serves the queue, which comes back here
        try {
            for (final Map.Entry<Http1Origin, Integer> want : spares.entrySet()) {
                while (idleCount(want.getKey()) + connecting.size() < want.getValue()
                        && open < maxConnections && connecting.size() < MAX_PARALLEL_CONNECTS) {
                    if (!openSpare(want.getKey())) {
                        sparesAfterNanos = clock.nanoTime() + IDLE_PROBE_AFTER_NANOS;
                        return;
                    }
                }
            }
            sparesAfterNanos = 0;
        } finally {
            growing = false;
        }
    }

    private int idleCount(final Http1Origin origin) {
        final ArrayDeque<Http1Connection> free = idle.get(origin);
        return free == null ? 0 : free.size();
    }

    /** One connection opened ahead of demand; false when it failed at once. */
    private boolean openSpare(final Http1Origin origin) {
        final Http1Connection c;
        try {
            c = open(origin);
        } catch (IOException | RuntimeException e) {
            return false;
        }
        c.ahead = true;
        finishOpening(c);
        return !c.closed;
    }

    /**
     * Keeps {@code spares} connections to {@code origin} idle or connecting from now on, opened ahead of demand
     * (0 stops it); connections beyond the loop's share are never opened.
     */
    void growAhead(final Http1Origin origin, final int spares) {
        execute(() -> {
            if (spares > 0) {
                this.spares.put(origin, spares);
            } else {
                this.spares.remove(origin);
            }
            serveWaiting();
        });
    }

    /**
     * What its reading thread did so far: bytes read, and the times it waited for this loop to give a batch back
     * (zeros without one).
     */
    long[] handedOver() {
        final ReadHandOff h = reader == null ? null : handOff;
        return h == null ? new long[2] : new long[] {h.bytesRead(), h.stalls()};
    }

    /** Connections opened by this loop so far. */
    long connectsOpened() {
        return opened.get();
    }

    /** Answers read to their end so far, and the sum of their times from request written to answer's end. */
    long[] answered() {
        return new long[] {answered.get(), answeredNanos.get()};
    }

    /**
     * Whether a connection that sat idle for a while was closed by the server meanwhile (then it is closed here).
     * The selector normally sees that first; a read probe covers a close that arrived just before the reuse, at the
     * cost of one system call, and only after a pause, so a busy loop never pays it.
     */
    private boolean stale(final Http1Connection c) {
        if (clock.nanoTime() - c.idleSince < IDLE_PROBE_AFTER_NANOS) {
            return false;
        }
        try {
            readBuffer.clear();
            final int n = c.tls == null ? c.channel.read(readBuffer) : c.tls.read(readBuffer);
            if (n == 0) {
                return false;
            }
            if (n < 0 && c.reused && clock.nanoTime() - c.idleSince < CLOSE_AFTER_RESPONSE_NANOS) {
                closedAfterResponse(c.origin, "an idle connection ended right after its answer", false);
            }
        } catch (IOException e) {
            // closed below
        }
        close(c);
        return true;
    }

    /**
     * Closes an idle connection (to another origin) to make room, or else the one kept longest for a conversation's
     * next turn; false when there is none.
     */
    private boolean closeOneIdle() {
        for (final ArrayDeque<Http1Connection> free : idle.values()) {
            if (!free.isEmpty()) {
                close(free.pollLast());
                return true;
            }
        }
        final Iterator<Http1Connection> kept = sessions.values().iterator();
        if (kept.hasNext()) {
            close(kept.next());
            return true;
        }
        return false;
    }

    /** A new connection, registered, its connect not yet started. */
    private Http1Connection open(final Http1Origin origin) throws IOException {
        final SocketChannel channel = SocketChannel.open();
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            final Http1Connection c = new Http1Connection(origin, channel, maxHeadBytes);
            c.interest = SelectionKey.OP_CONNECT;
            c.key = channel.register(selector, SelectionKey.OP_CONNECT, c);
            connections.add(c);
            if (reader != null) {
                selector.wakeup(); // a reading thread selects: the new connection counts from its next selection
            }
            open++;
            opened.lazySet(opened.get() + 1);
            c.connectingSince = clock.nanoTime();
            c.connectStartNanos = c.connectingSince;
            return c;
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private void finishOpening(final Http1Connection c) {
        try {
            connecting.add(c);
            if (c.origin.address().isUnresolved()) {
                throw new java.net.UnknownHostException("Cannot resolve " + c.origin.host());
            }
            if (c.channel.connect(c.origin.address())) {
                connected(c);
            }
        } catch (IOException | RuntimeException e) {
            fail(c, e instanceof IOException io ? io : new ConnectException(e.toString()));
        }
    }

    /** A TCP connect finished: the connection sets up its tunnel and TLS, or is ready at once. */
    private void connected(final Http1Connection c) {
        if (ConnectionSetup.needed(c.origin)) {
            c.setup = new ConnectionSetup(c.channel, c.origin);
            interest(c, SelectionKey.OP_READ); // until the first step says what it waits for
            setUp(c);
        } else {
            ready(c);
        }
    }

    /** One step of a connection's tunnel and TLS handshake; a failure fails it as a connect does. */
    private void setUp(final Http1Connection c) {
        try {
            if (c.setup.step()) {
                c.tls = c.setup.tls();
                c.setup = null;
                ready(c);
            } else {
                interest(c, c.setup.interest());
            }
        } catch (IOException e) {
            fail(c, e);
        } catch (RuntimeException e) {
            fail(c, new ConnectException("TLS setup failed: " + e));
        }
    }

    /** The connection is idle, ready for the first waiting request. */
    private void ready(final Http1Connection c) {
        if (!c.origin.facts().recorded()) {
            c.origin.facts().record("HTTP/1.1", c.tls == null ? null : c.tls.version(),
                    c.tls == null ? null : c.tls.alpn(), c.origin.proxy() == null ? null : c.origin.proxy().display());
        }
        connecting.remove(c);
        c.connectingSince = -1;
        c.connectDoneNanos = clock.nanoTime();
        c.settle();
        c.direct = c.tls == null; // from now on a reading thread may read it itself
        interest(c, SelectionKey.OP_READ);
        c.idleSince = c.connectDoneNanos;
        idle.computeIfAbsent(c.origin, o -> new ArrayDeque<>()).push(c);
        serveWaiting();
    }

    /**
     * Opens up to {@code count} idle connections to {@code origin} ahead of the load, within this loop's share;
     * {@code settled} counts down once for each of the {@code count}, when its connect is done or failed (or not
     * tried for want of room).
     */
    void preconnect(final Http1Origin origin, final int count, final java.util.concurrent.CountDownLatch settled) {
        preconnect(origin, count, false, settled);
    }

    /**
     * As {@link #preconnect(Http1Origin, int, java.util.concurrent.CountDownLatch)}; with {@code upTo}, only the
     * connections that {@code origin} lacks to have {@code count} open on this loop are opened (the latch still
     * counts {@code count}).
     */
    void preconnect(final Http1Origin origin, final int count, final boolean upTo,
                    final java.util.concurrent.CountDownLatch settled) {
        execute(() -> {
            final int have = upTo ? connectionsTo(origin) : 0;
            for (int i = 0; i < have && i < count; i++) {
                settled.countDown();
            }
            for (int i = have; i < count; i++) {
                if (open >= maxConnections) {
                    settled.countDown();
                    continue;
                }
                try {
                    final Http1Connection c = open(origin);
                    c.settled = settled;
                    c.ahead = true;
                    finishOpening(c);
                } catch (IOException | RuntimeException e) {
                    settled.countDown(); // the run's own requests will meet the same problem and report it
                }
            }
        });
    }

    /** Connections of this loop to {@code origin}, open or opening. */
    private int connectionsTo(final Http1Origin origin) {
        int n = 0;
        for (final Http1Connection c : connections) {
            if (!c.closed && c.origin.equals(origin)) {
                n++;
            }
        }
        return n;
    }

    private void start(final Http1Connection c, final Http1Exchange exchange) {
        c.current = exchange;
        exchange.connection = c;
        c.reader.reset(c);
        if (!c.reused) {
            exchange.collector.markNewConnection();
            if (!c.ahead) {
                // The first request on a connection opened while requests waited: it paid for the connect.
                exchange.collector.markConnectStart(c.connectStartNanos);
                exchange.collector.markConnectDone(c.connectDoneNanos);
            }
        }
        final boolean last = !guard.mayReuse(c.origin.key());
        if (guard.closesAfterResponse(c.origin.key())) {
            exchange.collector.markClosesAfterResponse();
        }
        try {
            final ByteBuffer bytes = writer.write(exchange, c.origin, last);
            c.sentNanos = clock.nanoTime();
            exchange.collector.markSent(c.sentNanos);
            write(c, bytes);
            if (bytes.hasRemaining() || (c.tls != null && !c.tls.flushed())) {
                c.unwritten = ByteBuffer.allocate(bytes.remaining()).put(bytes).flip();
                interest(c, SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            } else {
                written(exchange, clock.nanoTime());
            }
        } catch (IOException e) {
            fail(c, e);
        } catch (RuntimeException | Error e) {
            fail(c, new IOException("internal error while sending the request: " + e, e));
        }
    }

    private void flush(final Http1Connection c) throws IOException {
        if (c.unwritten == null) {
            interest(c, SelectionKey.OP_READ);
            return;
        }
        write(c, c.unwritten);
        if (!c.unwritten.hasRemaining() && (c.tls == null || c.tls.flushed())) {
            c.unwritten = null;
            interest(c, SelectionKey.OP_READ);
            if (c.current != null) {
                written(c.current, clock.nanoTime());
            }
        }
    }

    private static void write(final Http1Connection c, final ByteBuffer bytes) throws IOException {
        if (c.tls == null) {
            c.channel.write(bytes);
        } else {
            c.tls.write(bytes);
        }
    }

    private static void written(final Http1Exchange exchange, final long nanos) {
        exchange.collector.markWritten(nanos);
        if (exchange.onWritten != null && exchange.redirects == 0) {
            exchange.onWritten.run();
        }
    }

    /** Whether the request's outcome is still to be reported; marks it reported and stops timing it. */
    private boolean finished(final Http1Exchange exchange) {
        if (!exchange.finish()) {
            return false;
        }
        untime(exchange);
        return true;
    }

    /** Links a request into the deadline order; deadlines mostly grow, so the walk from the end is short. */
    private void time(final Http1Exchange e) {
        if (e.deadlineNanos == Long.MAX_VALUE || e.timed) {
            return;
        }
        Http1Exchange after = latest;
        while (after != null && after.deadlineNanos > e.deadlineNanos) {
            after = after.earlier;
        }
        e.earlier = after;
        e.later = after == null ? earliest : after.later;
        if (after == null) {
            earliest = e;
        } else {
            after.later = e;
        }
        if (e.later == null) {
            latest = e;
        } else {
            e.later.earlier = e;
        }
        e.timed = true;
    }

    private void untime(final Http1Exchange e) {
        if (!e.timed) {
            return;
        }
        if (e.earlier == null) {
            earliest = e.later;
        } else {
            e.earlier.later = e.later;
        }
        if (e.later == null) {
            latest = e.earlier;
        } else {
            e.later.earlier = e.earlier;
        }
        e.earlier = null;
        e.later = null;
        e.timed = false;
    }

    private void expireRequests() {
        final long now = clock.nanoTime();
        while (earliest != null && earliest.deadlineNanos <= now) {
            final Http1Exchange e = earliest;
            untime(e);
            e.onExpire.run(); // the handle expires and cancels the request: its outcome is reported by abort
        }
    }

    /** Sleeps until the next request deadline (or a connect check), at most a second. */
    private long selectTimeoutMillis() {
        long millis = connecting.isEmpty() ? 1000 : 100;
        if (earliest != null) {
            millis = Math.min(millis, Math.max(1, (earliest.deadlineNanos - clock.nanoTime() + 999_999) / 1_000_000));
        }
        return millis;
    }

    private void expireConnects() {
        final long now = clock.nanoTime();
        for (final Http1Connection c : List.copyOf(connecting)) {
            if (now - c.connectingSince > CONNECT_TIMEOUT_NANOS) {
                fail(c, new ConnectException("Connect to " + c.origin.hostHeader() + " timed out after 30 seconds"));
            }
        }
    }

    /** The connection failed: its request (if any) gets the error, and the connection is gone. */
    private void fail(final Http1Connection c, final IOException error) {
        Http1Exchange exchange = c.current;
        IOException cause = error;
        if (exchange != null && c.reused && !c.reader.started() && InferenceClient.refused(error)) {
            endedBeforeAnswer(c, clock.nanoTime(), "it refused a request on a kept-alive connection right after "
                    + "its answer");
            cause = closedBeforeAnswer();
        }
        c.current = null;
        final boolean connectFailed = c.connectingSince >= 0;
        if (connectFailed && c.ahead) {
            // A connect opened ahead failed: no spare is opened for a while, or a server that refuses connections
            // would be asked again at once, over and over; the requests meet the problem and report it.
            sparesAfterNanos = clock.nanoTime() + IDLE_PROBE_AFTER_NANOS;
        }
        close(c);
        if (exchange == null && connectFailed && !c.ahead) {
            exchange = firstWaitingFor(c.origin); // the request that was waiting for this connect learns why
            if (exchange != null) {
                waiting.remove(exchange);
            }
        }
        if (exchange != null) {
            failExchange(exchange, cause);
        }
        serveWaiting();
    }

    private Http1Exchange firstWaitingFor(final Http1Origin origin) {
        for (final Http1Exchange e : waiting) {
            if (e.origin.equals(origin)) {
                return e;
            }
        }
        return null;
    }

    private void failExchange(final Http1Exchange exchange, final Exception cause) {
        if (finished(exchange)) {
            exchange.callback.failed(cause);
        }
    }

    /** A cancel: the request's connection is closed (its answer cannot be skipped), or it leaves the queue. */
    void abort(final Http1Exchange exchange) {
        if (!finished(exchange)) {
            return;
        }
        final Http1Connection c = exchange.connection;
        if (c != null && c.current == exchange) {
            c.current = null;
            close(c);
        } else {
            waiting.remove(exchange);
        }
        exchange.callback.cancelled();
        serveWaiting();
    }

    private void close(final Http1Connection c) {
        if (c.closed) {
            return;
        }
        c.closed = true;
        c.settle();
        connections.remove(c);
        open--;
        connecting.remove(c);
        final ArrayDeque<Http1Connection> free = idle.get(c.origin);
        if (free != null) {
            free.remove(c);
        }
        if (c.session != null) {
            sessions.remove(c.session, c);
            c.session = null;
        }
        if (c.key != null) {
            c.key.cancel();
        }
        closeQuietly(c.channel);
    }

    private static void closeQuietly(final SocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing: nothing left to tell
            }
        }
    }

    /** Stops the loop; requests still on it are reported cancelled. */
    void stop() {
        running = false;
        wake();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void failAll(final IOException cause) {
        running = false;
        failure = cause;
        Http1Exchange w;
        while ((w = waiting.poll()) != null) {
            failExchange(w, cause);
        }
        for (final Http1Connection c : List.copyOf(connections)) {
            if (c.current != null) {
                fail(c, cause);
            }
        }
    }

    private void shutdown() {
        for (final Http1Connection c : List.copyOf(connections)) {
            final Http1Exchange exchange = c.current;
            c.current = null;
            close(c);
            if (exchange != null && finished(exchange)) {
                exchange.callback.cancelled();
            }
        }
        Http1Exchange w;
        while ((w = waiting.poll()) != null) {
            if (finished(w)) {
                w.callback.cancelled();
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
