package io.aiperf.engine.client;

import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.time.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.core5.concurrent.FutureCallback;

/**
 * The lean transport for HTTP/1.1 inference requests, http and https: keep-alive connections on the JDK's
 * non-blocking sockets (with the JDK's TLS engine for https, and a proxy when one applies), read by a few event
 * loops (for streamed requests each with a reading thread that only reads and stamps, {@link Http1Reader}). It carries
 * no redirect, cookie, auth or header-map machinery: a load generator needs none, and every microsecond of client
 * work per request is a request per second the server is not measured at (bench/history/analyses-2026-12.md). HTTP/2
 * and the control hooks use Apache HttpClient. Thread-safe.
 */
final class Http1Transport implements AutoCloseable {
    private final Http1Loop[] loops;
    private final AtomicInteger next = new AtomicInteger();
    private final TlsClient tls;
    private final io.aiperf.engine.config.ProxyConfig proxies;
    private final ConnectionFacts facts = new ConnectionFacts();
    private final ReuseGuard guard;
    /** Origins by URL, each resolved once for the run (on the sending thread, never on an event loop). */
    private final java.util.concurrent.ConcurrentHashMap<URI, Http1Origin> origins =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param maxConnections the pool, shared evenly by the loops
     * @param loopCount event-loop threads
     */
    Http1Transport(final int maxConnections, final int loopCount, final Clock clock,
                   final io.aiperf.engine.config.NetworkConfig network) {
        this(maxConnections, loopCount, clock, network,
                new ReuseGuard(io.aiperf.engine.config.ConnectionReuse.POOLED),
                Http1ResponseReader.DEFAULT_MAX_HEAD_BYTES);
    }

    /**
     * @param guard when a connection may carry another request
     * @param maxHeadBytes the largest response head accepted
     */
    Http1Transport(final int maxConnections, final int loopCount, final Clock clock,
                   final io.aiperf.engine.config.NetworkConfig network, final ReuseGuard guard,
                   final int maxHeadBytes) {
        this.tls = new TlsClient(network.tls());
        this.proxies = network.proxy();
        this.guard = guard;
        loops = new Http1Loop[loopCount];
        // Never more connections than the process may open files: past that, connects would fail as errors
        // (and so would the temporary files of the run); requests wait for a connection instead, which the
        // pool-wait figures show.
        final int pool = Math.min(maxConnections, fileDescriptorBudget());
        final int share = (pool + loopCount - 1) / loopCount;
        try {
            for (int i = 0; i < loopCount; i++) {
                loops[i] = new Http1Loop("http-loop-" + (i + 1), clock, share, guard, maxHeadBytes, this::origin);
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot open a selector", e);
        }
    }

    /** The file descriptors this process may open, less a reserve for files, the JVM and the other clients. */
    static int fileDescriptorBudget() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return (int) Math.max(64, Math.min(Integer.MAX_VALUE, unix.getMaxFileDescriptorCount() - 512));
        }
        return Integer.MAX_VALUE;
    }

    /** Whether this transport carries requests to {@code uri}. */
    static boolean carries(final URI uri) {
        return ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                && uri.getHost() != null;
    }

    /**
     * Sends one request; the callback gets exactly one outcome. At {@code deadlineNanos} (monotonic;
     * {@code Long.MAX_VALUE} for none) the loop runs {@code onExpire}, which is expected to cancel the request. A request sent from an event loop (the next request
     * of a closed loop, sent as the previous one completes) stays on that loop.
     */
    Future<?> execute(final PreparedRequest request, final String requestId, final String correlationId,
                      final ResponseCollector collector, final Runnable onWritten, final long deadlineNanos,
                      final Runnable onExpire, final FutureCallback<ResponseData> callback) {
        final Http1Loop loop = loopFor(correlationId);
        final Http1Origin known = origins.get(request.uri());
        final Http1Exchange exchange = new Http1Exchange(request, requestId, correlationId, collector, callback,
                onWritten, loop, known, deadlineNanos, onExpire);
        if (known == null && loop.inLoop()) {
            // A name not resolved yet, on an event loop: a lookup there would stall every connection of the loop.
            java.util.concurrent.ForkJoinPool.commonPool().execute(() -> {
                try {
                    exchange.origin = origin(request.uri());
                } catch (RuntimeException e) {
                    if (exchange.finish()) {
                        callback.failed(new java.io.IOException("cannot resolve " + request.uri() + ": " + e, e));
                    }
                    return;
                }
                loop.submit(exchange);
            });
        } else {
            if (known == null) {
                exchange.origin = origin(request.uri());
            }
            loop.submit(exchange);
        }
        return exchange;
    }

    /**
     * The loop a request goes to: the one it is sent from (the next request of a closed loop, sent as the previous
     * one completes), or the next in turn; a conversation that keeps its connection always goes to the same loop,
     * which holds that connection.
     */
    private Http1Loop loopFor(final String correlationId) {
        if (guard.strategy() == io.aiperf.engine.config.ConnectionReuse.STICKY_USER_SESSIONS) {
            return loops[Math.floorMod(correlationId.hashCode(), loops.length)];
        }
        for (final Http1Loop l : loops) {
            if (l != null && l.inLoop()) {
                return l;
            }
        }
        return loops[Math.floorMod(next.getAndIncrement(), loops.length)];
    }

    /** The origin of {@code uri}, resolved the first time; a name that does not resolve is tried again next time. */
    Http1Origin origin(final URI uri) {
        final Http1Origin known = origins.get(uri);
        if (known != null) {
            return known;
        }
        final Http1Origin o = Http1Origin.resolve(uri, tls, proxies.forTarget(uri), facts);
        if (!o.address().isUnresolved()) {
            origins.putIfAbsent(uri, o);
        }
        return o;
    }

    /**
     * Opens {@code count} connections to {@code uri} before the load starts, spread over the loops, and waits (at
     * most {@code timeoutNanos}) for them: the first requests of a run then do not pay for connects.
     *
     * @return whether every connect settled in time
     */
    boolean preconnect(final URI uri, final int count, final long timeoutNanos) throws InterruptedException {
        final java.util.concurrent.CountDownLatch settled = new java.util.concurrent.CountDownLatch(count);
        for (int i = 0; i < loops.length; i++) {
            loops[i].preconnect(origin(uri), count / loops.length + (i < count % loops.length ? 1 : 0), settled);
        }
        return settled.await(timeoutNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /**
     * Opens connections to {@code uri} until {@code total} are open to it, spread over the loops, and waits (at most
     * {@code timeoutNanos}) for the new ones.
     *
     * @return whether every connect settled in time
     */
    boolean topUp(final URI uri, final int total, final long timeoutNanos) throws InterruptedException {
        final java.util.concurrent.CountDownLatch settled = new java.util.concurrent.CountDownLatch(total);
        for (int i = 0; i < loops.length; i++) {
            loops[i].preconnect(origin(uri), total / loops.length + (i < total % loops.length ? 1 : 0), true, settled);
        }
        return settled.await(timeoutNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /** Keeps {@code spares} connections to {@code uri} idle or connecting at all times, spread over the loops. */
    void growAhead(final URI uri, final int spares) {
        for (int i = 0; i < loops.length; i++) {
            loops[i].growAhead(origin(uri), (spares + loops.length - 1) / loops.length);
        }
    }

    /** Connections opened so far, ahead of demand or for a waiting request. */
    long connectsOpened() {
        long n = 0;
        for (final Http1Loop loop : loops) {
            n += loop.connectsOpened();
        }
        return n;
    }

    /** Answers read to their end so far, and the sum of their times from request written to answer's end. */
    long[] answered() {
        final long[] sum = new long[2];
        for (final Http1Loop loop : loops) {
            final long[] a = loop.answered();
            sum[0] += a[0];
            sum[1] += a[1];
        }
        return sum;
    }

    /** What the reading threads did so far: bytes read, and times they waited for their loop. */
    long[] handedOver() {
        final long[] sum = new long[2];
        for (final Http1Loop loop : loops) {
            final long[] h = loop.handedOver();
            sum[0] += h[0];
            sum[1] += h[1];
        }
        return sum;
    }

    /** How the first connection was set up (protocol, TLS, proxy). */
    io.aiperf.engine.record.Environment.Connection connection() {
        return facts.get();
    }

    @Override
    public void close() {
        for (final Http1Loop loop : loops) {
            if (loop != null) {
                loop.stop();
            }
        }
    }
}
