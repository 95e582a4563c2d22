package io.aiperf.engine.client;

import io.aiperf.engine.config.ConnectionReuse;
import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.config.NetworkConfig;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.time.Clock;
import java.net.ConnectException;
import java.net.SocketException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.RequestNotExecutedException;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.entity.AsyncEntityProducers;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.Timeout;

/**
 * Sends inference requests on a non-blocking keep-alive pool and reports each outcome once: the lean HTTP/1.1
 * transport for http and https ({@link Http1Transport}), Apache HttpClient 5 async for HTTP/2 ({@code http2}) and
 * when the lean transport is switched off. Both take the same TLS and proxy settings (src-docs/proxies-and-tls.md). A request is resent (once, on a fresh connection) only when it provably never
 * reached the server: its kept-alive connection was found closed before the request was written. A request that
 * was written and then lost its connection is an error record, as upstream AIPerf counts it, because the server
 * may have received it (src-docs/failure-modes.md). Retries are counted. Thread-safe.
 * <p>
 * It is over 400 lines because it is the one front of both transports (the lean one and HttpClient's), with the
 * resend rule, the probes' plain GET and the pool settings they share.
 */
public final class InferenceClient implements RequestTransport, AutoCloseable {
    private final Clock clock;
    private final RunLimits limits;
    private final long timeoutNanos;
    private final String timeoutText;
    /** Fires request timeouts: the whole request is bounded, not just each read (AIPerf's endpoint and streaming docs). */
    private final java.util.concurrent.ScheduledThreadPoolExecutor timer = timer();
    /** Carries HTTP/1.1 requests; null when the lean transport is switched off or HTTP/2 is asked for. */
    private final Http1Transport lean;
    private final int maxConnections;
    private final double timeoutSeconds;
    private final NetworkConfig network;
    /** How Apache's first connection was set up. */
    private final ConnectionFacts apacheFacts = new ConnectionFacts();
    /** Answers the probes (/v1/models, /version, /metrics) with the same TLS and proxy settings. */
    private final ProbeClient probes;
    /** When connections are reused, and which servers were seen closing them after their answers. */
    private final ReuseGuard guard;
    /**
     * Apache HttpClient, for HTTP/2 and the switched-off lean transport: built on first use, because its few hundred
     * classes cost a lean run a tenth of a second of start-up on the way to the first request.
     */
    private volatile Apache apache;

    /**
     * @param maxConnections pool size: the concurrency, or a generous ceiling in rate mode
     * @param timeoutSeconds request timeout; 0 means none
     */
    public InferenceClient(final int maxConnections, final double timeoutSeconds, final Clock clock,
                           final RunLimits limits, final NetworkConfig network) {
        this(maxConnections, timeoutSeconds, clock, limits, network, limits.leanHttp());
    }

    /**
     * @param leanTransport carry HTTP/1.1 requests on the lean transport ({@link Http1Transport}); false sends
     *                      everything through Apache HttpClient
     */
    public InferenceClient(final int maxConnections, final double timeoutSeconds, final Clock clock,
                           final RunLimits limits, final NetworkConfig network, final boolean leanTransport) {
        this(maxConnections, timeoutSeconds, clock, limits, network, leanTransport, ConnectionReuse.POOLED);
    }

    /** @param reuse when a request may go out on a connection an earlier one used ({@code --connection-reuse-strategy}) */
    public InferenceClient(final int maxConnections, final double timeoutSeconds, final Clock clock,
                           final RunLimits limits, final NetworkConfig network, final ConnectionReuse reuse) {
        this(maxConnections, timeoutSeconds, clock, limits, network, limits.leanHttp(), reuse);
    }

    private InferenceClient(final int maxConnections, final double timeoutSeconds, final Clock clock,
                            final RunLimits limits, final NetworkConfig network, final boolean leanTransport,
                            final ConnectionReuse reuse) {
        this.clock = clock;
        this.guard = new ReuseGuard(reuse);
        this.limits = limits;
        this.maxConnections = maxConnections;
        this.timeoutSeconds = timeoutSeconds;
        this.network = network;
        this.probes = new ProbeClient(network);
        this.timeoutNanos = timeoutSeconds <= 0 ? 0 : (long) (timeoutSeconds * 1e9);
        this.timeoutText = timeoutSeconds <= 0 ? "" : String.valueOf(timeoutSeconds);
        this.lean = leanTransport && !network.http2()
                ? new Http1Transport(maxConnections, ioThreads(), clock, network, guard, limits.maxHeadBytes())
                : null;
    }

    /** Where the client's warnings go (once each: a server closing its connections, a redirect followed). */
    public void onWarning(final Consumer<String> sink) {
        guard.onWarning(sink);
    }

    /**
     * Sends one request; {@code done} is called exactly once, on an I/O thread (or the caller's, when the
     * request cannot even start).
     *
     * @param requestId sent as X-Request-ID
     * @param correlationId sent as X-Correlation-ID (or the renamed session header) and X-Session-Affinity
     */
    @Override
    public void send(final PreparedRequest request, final String requestId, final String correlationId,
                     final InFlight handle, final Consumer<ResponseData> done) {
        final long issued = clock.nanoTime();
        if (timeoutNanos > 0 && !carriedLean(request)) {
            final java.util.concurrent.ScheduledFuture<?> expiry = timer.schedule(handle::expire, timeoutNanos,
                    TimeUnit.NANOSECONDS);
            final Consumer<ResponseData> inner = done;
            attempt(request, requestId, correlationId, result -> {
                expiry.cancel(false);
                inner.accept(result);
            }, issued, false, handle);
        } else {
            // The lean transport times its requests on its own event loop (no timer thread per request).
            attempt(request, requestId, correlationId, done, issued, false, handle);
        }
    }

    /**
     * Opens {@code count} connections to the URL's server before the load, waiting at most {@code timeoutSeconds}
     * (on the lean transport; elsewhere connections open with the first requests).
     *
     * @return whether they were all opened (or tried) in time
     */
    public boolean preconnect(final java.net.URI uri, final int count, final double timeoutSeconds)
            throws InterruptedException {
        return lean == null || !Http1Transport.carries(uri) || count <= 0
                || lean.preconnect(uri, count, (long) (timeoutSeconds * 1e9));
    }

    /**
     * Sizes the pool for an open loop about to start at {@code rate} (src-docs/performance.md): opens what the
     * loop is expected to have in flight, from the mean latency measured so far (the warmup), and its spares, waits
     * at most {@code timeoutSeconds} for them, and keeps the spares opening ahead of demand from then on. On the lean transport
     * only; Apache's pool opens connections with the requests.
     *
     * @return the pool asked for, or null when this client's pool does not grow ahead
     */
    public OpenLoopPool prepareOpenLoop(final java.util.List<java.net.URI> uris, final double rate,
                                        final double timeoutSeconds) throws InterruptedException {
        final java.util.List<java.net.URI> lean = uris.stream().filter(Http1Transport::carries).toList();
        if (this.lean == null || lean.isEmpty() || rate <= 0) {
            return null;
        }
        final long[] answered = this.lean.answered();
        final double latency = answered[0] == 0 ? 0 : answered[1] / 1e9 / answered[0];
        final OpenLoopPool pool = OpenLoopPool.of(rate, latency, maxConnections);
        final int perUri = (pool.connections() + lean.size() - 1) / lean.size();
        final int sparesPerUri = (pool.spares() + lean.size() - 1) / lean.size();
        for (final java.net.URI uri : lean) {
            // The spares are opened now as well, so the phase starts with them idle, not connecting.
            this.lean.topUp(uri, perUri + sparesPerUri, (long) (timeoutSeconds * 1e9));
            this.lean.growAhead(uri, sparesPerUri);
        }
        return pool;
    }

    /** Connections the lean transport opened so far (ahead of demand or for a waiting request). */
    public long connectsOpened() {
        return lean == null ? 0 : lean.connectsOpened();
    }

    /** What the lean transport's reading threads did so far: bytes read, and times they waited for their loop. */
    long[] handedOver() {
        return lean == null ? new long[2] : lean.handedOver();
    }

    private boolean carriedLean(final PreparedRequest request) {
        return lean != null && Http1Transport.carries(request.uri());
    }

    private static java.util.concurrent.ScheduledThreadPoolExecutor timer() {
        final java.util.concurrent.ScheduledThreadPoolExecutor t = new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> {
            final Thread th = new Thread(r, "request-timeouts");
            th.setDaemon(true);
            return th;
        });
        t.setRemoveOnCancelPolicy(true);
        return t;
    }

    /** The answer to a probe GET; the body is cut at 64 KiB. */
    public record Answer(int status, String serverHeader, String body) {
    }

    /**
     * A plain GET with this client's TLS and proxy settings and the given headers, for asking a server who it is.
     * Returns null when the server does not answer within the timeout, the connection fails, or the body is larger
     * than {@code maxBytes}; never throws.
     */
    public Answer get(final java.net.URI uri, final RequestHeaders headers, final double timeoutSeconds,
                      final int maxBytes) {
        final java.util.Map<String, String> given = headers.asMap();
        try {
            final ProbeClient.Response r = probes.get(uri, given, timeoutSeconds, maxBytes);
            final String body = r.text();
            return new Answer(r.status(), r.header("Server"), body.length() > 65_536 ? body.substring(0, 65_536) : body);
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /** How the inference requests' first connection was set up: protocol, TLS version, ALPN, proxy. */
    public io.aiperf.engine.record.Environment.Connection connection() {
        return lean != null && !apacheFacts.recorded() ? lean.connection() : apacheFacts.get();
    }

    /**
     * @param issuedNanos when the request was first handed to this client
     * @param retry this is the second attempt
     */
    private void attempt(final PreparedRequest request, final String requestId, final String correlationId,
                         final Consumer<ResponseData> done, final long issuedNanos, final boolean retry,
                         final InFlight handle) {
        final ResponseCollector collector = new ResponseCollector(clock, request.streaming(), issuedNanos, retry, limits,
                request.parser());
        collector.onFirstContent(handle::firstContent);
        collector.bodyBytes(request.body() == null ? -1 : request.body().length);
        final long cancelAfter = handle.cancelAfterSentNanos();
        final Runnable onWritten = cancelAfter < 0 ? null
                : () -> timer.schedule(() -> handle.requestedCancel(clock.nanoTime()), cancelAfter, TimeUnit.NANOSECONDS);
        final FutureCallback<ResponseData> callback = new FutureCallback<>() {
            @Override
            public void completed(final ResponseData result) {
                if (!carriedLean(request) && collector.reusedConnection() && collector.receivedAnything()) {
                    guard.answeredOnReuse(ReuseGuard.key(request.uri())); // the lean loops say so themselves
                }
                done.accept(result);
            }

            @Override
            public void failed(final Exception ex) {
                final boolean lean = carriedLean(request);
                final boolean lost = lostBeforeAnswer(collector, ex, lean);
                if (lost && !lean) {
                    sawApacheConnectionLost(request, collector);
                }
                if (!retry && lost && limits.retryUnsent() && !handle.isCancelled()) {
                    // The retry goes on a new connection, counted through its record (TransportTimes.retried). The
                    // lean loops give it one of its own; Apache's pool may hold idle ones just as stale: dropped.
                    if (!lean) {
                        closeApacheIdle();
                    }
                    attempt(request, requestId, correlationId, done, issuedNanos, true, handle);
                } else if (ex instanceof java.net.SocketTimeoutException && timeoutNanos > 0) {
                    // The socket's timeout equals the request's: silent that long, the request ran out of time.
                    done.accept(collector.failure(new java.util.concurrent.TimeoutException(
                            "Request timed out after " + timeoutText + " seconds")));
                } else {
                    done.accept(collector.failure(ex));
                }
            }

            @Override
            public void cancelled() {
                // May run on the cancelling thread (the timer, the drain): only thread-safe stamps are read.
                if (handle.requestedCancelNanos() >= 0 && !handle.expired()) {
                    done.accept(collector.cancelledAsAsked(handle.requestedCancelNanos()));
                    return;
                }
                done.accept(handle.expired()
                        ? collector.cancelled(new java.util.concurrent.TimeoutException(
                                "Request timed out after " + timeoutText + " seconds"))
                        : collector.cancelled(new java.util.concurrent.CancellationException("request cancelled")));
            }
        };
        if (carriedLean(request)) {
            handle.attach(lean.execute(request, requestId, correlationId, collector, onWritten,
                    timeoutNanos > 0 ? issuedNanos + timeoutNanos : Long.MAX_VALUE, handle::expire, callback));
            return;
        }
        final HttpRequest httpRequest = new org.apache.hc.core5.http.message.BasicHttpRequest("POST", request.uri());
        for (final Header h : request.headers()) {
            httpRequest.addHeader(h);
        }
        httpRequest.setHeader("X-Request-ID", requestId);
        httpRequest.setHeader(request.sessionHeader(), correlationId);
        httpRequest.setHeader("X-Session-Affinity", correlationId);
        if (!guard.mayReuse(ReuseGuard.key(request.uri()))) {
            httpRequest.setHeader("Connection", "close"); // never, or a server that closes after its answers
            if (guard.closesAfterResponse(ReuseGuard.key(request.uri()))) {
                collector.markClosesAfterResponse();
            }
        }
        final org.apache.hc.client5.http.protocol.HttpClientContext context =
                org.apache.hc.client5.http.protocol.HttpClientContext.create();
        context.setAttribute(StampingConnectionManager.COLLECTOR, collector);
        final org.apache.hc.core5.http.nio.AsyncEntityProducer body =
                AsyncEntityProducers.create(request.body(), ContentType.APPLICATION_JSON);
        final AsyncRequestProducer producer = new BasicRequestProducer(httpRequest, onWritten == null ? body
                : new SentSignallingProducer(body, onWritten)) {
            @Override
            public void sendRequest(final org.apache.hc.core5.http.nio.RequestChannel channel,
                                    final org.apache.hc.core5.http.protocol.HttpContext ctx)
                    throws org.apache.hc.core5.http.HttpException, java.io.IOException {
                collector.markSent(clock.nanoTime()); // on the I/O thread, as the head goes to the connection
                super.sendRequest(channel, ctx);
            }
        };
        final Apache a = apache();
        if (a == null) {
            callback.failed(new java.io.IOException("client closed"));
            return;
        }
        handle.attach(a.http.execute(producer, collector, null, context, apacheFacts.recorded() ? callback
                : observing(callback, context, request.uri())));
    }

    /** Records how Apache's first connection was set up, once it answered. */
    private FutureCallback<ResponseData> observing(final FutureCallback<ResponseData> callback,
                                                   final org.apache.hc.client5.http.protocol.HttpClientContext context,
                                                   final java.net.URI uri) {
        return new FutureCallback<>() {
            @Override
            public void completed(final ResponseData result) {
                final org.apache.hc.core5.http.ProtocolVersion version = context.getProtocolVersion();
                if (version != null) {
                    final javax.net.ssl.SSLSession tlsSession = context.getSSLSession();
                    final boolean h2 = version.getMajor() == 2;
                    final io.aiperf.engine.config.ProxyConfig.Proxy proxy = network.proxy().forTarget(uri);
                    apacheFacts.record(h2 ? "HTTP/2" : "HTTP/1.1", tlsSession == null ? null : tlsSession.getProtocol(),
                            tlsSession != null && h2 ? "h2" : null, proxy == null ? null : proxy.display());
                }
                callback.completed(result);
            }

            @Override
            public void failed(final Exception ex) {
                callback.failed(ex);
            }

            @Override
            public void cancelled() {
                callback.cancelled();
            }
        };
    }

    private void closeApacheIdle() {
        final Apache a = apache;
        if (a != null) {
            a.pool.closeIdle(org.apache.hc.core5.util.TimeValue.ZERO_MILLISECONDS);
        }
    }

    /**
     * One reactor per four cores: a single reactor easily carries tens of thousands of requests per second,
     * and every extra thread on a small machine adds wake-up latency to the timestamps.
     */
    static int ioThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 4);
    }

    /**
     * Whether a failed request may go again, once, on a new connection, as curl and browsers do: no byte of its
     * answer came back, and either it was never written (its connection was found closed first) or it went out on
     * a kept-alive connection that the server closed or reset before answering. That is the race with a server
     * that closes connections after its answers: whether it read the request cannot be told (a half-closed socket
     * takes bytes it will never answer), and the request was never answered. A new connection that ends without an
     * answer is an error: that server read the request and dropped it. The lean transport knows which of its
     * connections were reused and says so with a {@link RequestNotExecutedException}; on Apache's, a request that
     * paid for no connect went out on a reused one.
     *
     * @param lean the request went out on the lean transport
     */
    static boolean lostBeforeAnswer(final ResponseCollector collector, final Exception ex, final boolean lean) {
        if (collector.receivedAnything() || ex instanceof ConnectException) {
            return false;
        }
        if (ex instanceof RequestNotExecutedException) {
            return true;
        }
        final boolean closed = ex instanceof ConnectionClosedException || refused(ex);
        return closed && (!collector.written() || (!lean && collector.reusedConnection()));
    }

    /**
     * On Apache HttpClient's connections: requests lost on reused connections make their server known to close
     * connections after its answers ({@link ReuseGuard#sawEndAfterAnswer}), unless it has answered on a kept-alive
     * connection before (the lean transport
     * also looks at how soon after the answer, {@link Http1Loop}), whether or not the request is sent again.
     */
    private void sawApacheConnectionLost(final PreparedRequest request, final ResponseCollector collector) {
        if (!collector.written() || !collector.reusedConnection()) {
            return;
        }
        final String origin = ReuseGuard.key(request.uri());
        if (!guard.closesAfterResponse(origin)) {
            guard.sawEndAfterAnswer(origin, "requests on reused connections met their close");
        }
    }

    /** A reset or a broken pipe (the JDK reports the latter as a plain IOException naming it). */
    static boolean refused(final Exception ex) {
        final String message = String.valueOf(ex.getMessage());
        return ex instanceof SocketException || (ex instanceof java.io.IOException
                && (message.contains("Broken pipe") || message.contains("Connection reset")));
    }

    /** A random UUID from a fast non-cryptographic source; ids only need to be unique, not secret. */
    public static String fastUuid() {
        final ThreadLocalRandom r = ThreadLocalRandom.current();
        return new java.util.UUID((r.nextLong() & ~0xF000L) | 0x4000L,
                (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L).toString();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        if (lean != null) {
            lean.close();
        }
        final Apache a;
        synchronized (this) {
            a = apache;
            apache = Apache.CLOSED;
        }
        if (a != null && a != Apache.CLOSED) {
            a.close();
        }
    }

    /** The Apache client, built on first use; null once this client is closed. */
    private Apache apache() {
        Apache a = apache;
        if (a == null) {
            synchronized (this) {
                a = apache;
                if (a == null) {
                    a = new Apache(maxConnections, timeoutSeconds, network, clock, limits.maxHeadBytes());
                    apache = a;
                }
            }
        }
        return a == Apache.CLOSED ? null : a;
    }

    /** Apache HttpClient 5's minimal async client on its own keep-alive pool. */
    private static final class Apache {
        static final Apache CLOSED = new Apache();
        final PoolingAsyncClientConnectionManager pool;
        final org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient http;

        private Apache() {
            pool = null;
            http = null;
        }

        @SuppressWarnings("deprecation") // the version policy of the client: its replacement alone is not applied
        Apache(final int maxConnections, final double timeoutSeconds, final NetworkConfig network, final Clock clock,
               final int maxHeadBytes) {
            // HTTP/1.1 unless HTTP/2 is asked for: over TLS, ALPN would otherwise pick whatever the server prefers.
            final org.apache.hc.core5.http2.HttpVersionPolicy policy = network.http2()
                    ? org.apache.hc.core5.http2.HttpVersionPolicy.FORCE_HTTP_2
                    : org.apache.hc.core5.http2.HttpVersionPolicy.FORCE_HTTP_1;
            this.pool = PoolingAsyncClientConnectionManagerBuilder.create()
                    .setTlsStrategy(TlsStrategies.of(network.tls()))
                    .setDefaultTlsConfig(org.apache.hc.client5.http.config.TlsConfig.custom()
                            .setVersionPolicy(policy).build())
                    .setMaxConnTotal(maxConnections)
                    .setMaxConnPerRoute(maxConnections)
                    .setDefaultConnectionConfig(ConnectionConfig.custom()
                            .setConnectTimeout(Timeout.ofSeconds(30))
                            // No byte for the whole timeout ends the request too, and closes its connection so no
                            // later request queues behind an answer that never comes.
                            .setSocketTimeout(timeoutSeconds <= 0 ? Timeout.DISABLED
                                    : Timeout.ofMilliseconds((long) (timeoutSeconds * 1000)))
                            // Idle connections are checked before reuse, so one the server closed while it sat in
                            // the pool is replaced instead of taking a request down with it.
                            .setValidateAfterInactivity(org.apache.hc.core5.util.TimeValue.ofMilliseconds(500))
                            .build())
                    .build();
            final IOReactorConfig reactor = IOReactorConfig.custom()
                    .setIoThreadCount(ioThreads())
                    .setTcpNoDelay(true)
                    .setSoKeepAlive(true)
                    .setSelectInterval(org.apache.hc.core5.util.TimeValue.ofMilliseconds(1))
                    .build();
            final StampingConnectionManager connections = new StampingConnectionManager(pool, clock);
            // The minimal client skips the redirect, auth, cookie and proxy machinery of the full one: twice the
            // request rate per core, which is what a load generator on a shared machine needs. Only a proxy needs
            // the full one (its routes, and the proxy's credentials).
            this.http = network.proxy().any()
                    ? HttpAsyncClients.custom()
                            .setIOReactorConfig(reactor)
                            .setHttp1Config(ApacheLimits.http1(maxHeadBytes))
                            .setConnectionManager(connections)
                            .setRoutePlanner(ApacheProxies.routePlanner(network.proxy()))
                            .setDefaultCredentialsProvider(ApacheProxies.credentials(network.proxy()))
                            .disableRedirectHandling()
                            .disableCookieManagement()
                            .disableAutomaticRetries()
                            .disableConnectionState()
                            .setVersionPolicy(policy)
                            .build()
                    : HttpAsyncClients.createMinimal(policy, org.apache.hc.core5.http2.config.H2Config.DEFAULT,
                            ApacheLimits.http1(maxHeadBytes), reactor, connections);
            http.start();
        }

        void close() {
            http.close(CloseMode.IMMEDIATE);
            try {
                http.awaitShutdown(org.apache.hc.core5.util.TimeValue.of(5, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
