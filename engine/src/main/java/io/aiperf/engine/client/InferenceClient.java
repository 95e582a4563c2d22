package io.aiperf.engine.client;

import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.config.TlsConfig;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.time.Clock;
import java.net.ConnectException;
import java.net.SocketException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
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
 * Sends inference requests on a non-blocking keep-alive pool (Apache HttpClient 5 async, HTTP/1.1) and
 * reports each outcome once. A request that fails before any response byte because a kept-alive connection
 * was closed under it is resent once on a fresh connection; the failed attempt is neither an error nor part
 * of the timing. Thread-safe.
 */
public final class InferenceClient implements RequestTransport, AutoCloseable {
    private final org.apache.hc.client5.http.impl.async.MinimalHttpAsyncClient http;
    private final Clock clock;
    private final RunLimits limits;
    private final long timeoutNanos;
    private final String timeoutText;
    /** Fires request timeouts: the whole request is bounded, not just each read (AIPerf's endpoint and streaming docs). */
    private final java.util.concurrent.ScheduledThreadPoolExecutor timer = timer();
    private final PoolingAsyncClientConnectionManager pool;

    /**
     * @param maxConnections pool size: the concurrency, or a generous ceiling in rate mode
     * @param timeoutSeconds request timeout; 0 means none
     */
    public InferenceClient(final int maxConnections, final double timeoutSeconds, final Clock clock,
                           final RunLimits limits, final TlsConfig tls) {
        this.clock = clock;
        this.limits = limits;
        final Timeout timeout = timeoutSeconds <= 0 ? Timeout.DISABLED
                : Timeout.ofMilliseconds((long) (timeoutSeconds * 1000));
        this.pool = PoolingAsyncClientConnectionManagerBuilder.create()
                .setTlsStrategy(TlsStrategies.of(tls))
                .setMaxConnTotal(maxConnections)
                .setMaxConnPerRoute(maxConnections)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.ofSeconds(30))
                        .setSocketTimeout(timeout)
                        .setValidateAfterInactivity(org.apache.hc.core5.util.TimeValue.ofSeconds(2))
                        .build())
                .build();
        this.timeoutNanos = timeoutSeconds <= 0 ? 0 : (long) (timeoutSeconds * 1e9);
        this.timeoutText = timeoutSeconds <= 0 ? "" : String.valueOf(timeoutSeconds);
        // The minimal client skips the redirect, auth, cookie and proxy machinery of the full one: twice the
        // request rate per core, which is what a load generator on a shared machine needs.
        this.http = HttpAsyncClients.createMinimal(org.apache.hc.core5.http2.config.H2Config.DEFAULT,
                org.apache.hc.core5.http.config.Http1Config.DEFAULT,
                IOReactorConfig.custom()
                        .setIoThreadCount(ioThreads())
                        .setTcpNoDelay(true)
                        .setSoKeepAlive(true)
                        .setSelectInterval(org.apache.hc.core5.util.TimeValue.ofMilliseconds(1))
                        .build(),
                pool);
        http.start();
    }

    /**
     * Sends one request; {@code done} is called exactly once, on an I/O thread (or the caller's, when the
     * request cannot even start).
     *
     * @param requestId sent as X-Request-ID
     * @param correlationId sent as X-Correlation-ID and X-Session-Affinity
     */
    @Override
    public void send(final PreparedRequest request, final String requestId, final String correlationId,
                     final InFlight handle, final Consumer<ResponseData> done) {
        if (timeoutNanos > 0) {
            final java.util.concurrent.ScheduledFuture<?> expiry = timer.schedule(handle::expire, timeoutNanos,
                    TimeUnit.NANOSECONDS);
            final Consumer<ResponseData> inner = done;
            attempt(request, requestId, correlationId, result -> {
                expiry.cancel(false);
                inner.accept(result);
            }, true, handle);
        } else {
            attempt(request, requestId, correlationId, done, true, handle);
        }
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

    /** A request on the wire; {@link #cancel()} abandons it (its outcome is then a cancellation). */
    public static final class InFlight {
        private volatile java.util.concurrent.Future<?> current;
        private volatile boolean expired;

        void expire() {
            expired = true;
            cancel();
        }

        public void cancel() {
            final java.util.concurrent.Future<?> f = current;
            if (f != null) {
                f.cancel(true);
            }
        }
    }

    private void attempt(final PreparedRequest request, final String requestId, final String correlationId,
                         final Consumer<ResponseData> done, final boolean mayRetry, final InFlight handle) {
        final HttpRequest httpRequest = new org.apache.hc.core5.http.message.BasicHttpRequest("POST", request.uri());
        for (final Header h : request.headers()) {
            httpRequest.addHeader(h);
        }
        httpRequest.setHeader("X-Request-ID", requestId);
        httpRequest.setHeader("X-Correlation-ID", correlationId);
        httpRequest.setHeader("X-Session-Affinity", correlationId);
        final ResponseCollector collector = new ResponseCollector(clock, request.streaming(), clock.nanoTime(), limits);
        final AsyncRequestProducer producer = new BasicRequestProducer(httpRequest,
                AsyncEntityProducers.create(request.body(), ContentType.APPLICATION_JSON)) {
            @Override
            public void sendRequest(final org.apache.hc.core5.http.nio.RequestChannel channel,
                                    final org.apache.hc.core5.http.protocol.HttpContext ctx)
                    throws org.apache.hc.core5.http.HttpException, java.io.IOException {
                collector.markSent(clock.nanoTime()); // on the I/O thread, as the head goes to the connection
                super.sendRequest(channel, ctx);
            }
        };
        handle.current = http.execute(producer, collector, null, null, new FutureCallback<>() {
            @Override
            public void completed(final ResponseData result) {
                done.accept(result);
            }

            @Override
            public void failed(final Exception ex) {
                if (mayRetry && !collector.receivedAnything() && isStaleConnection(ex)) {
                    // Idle connections may be just as stale: drop them so the retry opens a fresh one.
                    pool.closeIdle(org.apache.hc.core5.util.TimeValue.ZERO_MILLISECONDS);
                    attempt(request, requestId, correlationId, done, false, handle);
                } else {
                    done.accept(collector.failure(ex));
                }
            }

            @Override
            public void cancelled() {
                done.accept(handle.expired
                        ? collector.failure(new java.util.concurrent.TimeoutException(
                                "Request timed out after " + timeoutText + " seconds"))
                        : collector.failure(new java.util.concurrent.CancellationException("request cancelled")));
            }
        });
    }

    /**
     * One reactor per four cores: a single reactor easily carries tens of thousands of requests per second,
     * and every extra thread on a small machine adds wake-up latency to the timestamps.
     */
    static int ioThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 4);
    }

    /** A kept-alive connection closed by the server before our request got an answer. */
    static boolean isStaleConnection(final Exception ex) {
        return !(ex instanceof ConnectException)
                && (ex instanceof ConnectionClosedException || ex instanceof RequestNotExecutedException
                || ex instanceof SocketException);
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
        http.close(CloseMode.IMMEDIATE);
        try {
            http.awaitShutdown(org.apache.hc.core5.util.TimeValue.of(5, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
