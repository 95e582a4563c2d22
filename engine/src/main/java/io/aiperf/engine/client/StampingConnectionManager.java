package io.aiperf.engine.client;

import io.aiperf.engine.time.Clock;
import java.util.concurrent.Future;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.nio.AsyncClientConnectionManager;
import org.apache.hc.client5.http.nio.AsyncConnectionEndpoint;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.ConnectionInitiator;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The connection pool, with the start and end of every new connection stamped on the request that caused it, so
 * a request's time before its write splits into pool wait and connect. Connects carry the request's context; the
 * collector rides in it. Thread-safe.
 */
final class StampingConnectionManager implements AsyncClientConnectionManager {
    static final String COLLECTOR = "io.aiperf.collector";

    private final AsyncClientConnectionManager pool;
    private final Clock clock;

    StampingConnectionManager(final AsyncClientConnectionManager pool, final Clock clock) {
        this.pool = pool;
        this.clock = clock;
    }

    @Override
    public Future<AsyncConnectionEndpoint> lease(final String id, final HttpRoute route, final Object state,
                                                 final Timeout requestTimeout,
                                                 final FutureCallback<AsyncConnectionEndpoint> callback) {
        return pool.lease(id, route, state, requestTimeout, callback);
    }

    @Override
    public void release(final AsyncConnectionEndpoint endpoint, final Object newState, final TimeValue validDuration) {
        pool.release(endpoint, newState, validDuration);
    }

    @Override
    public Future<AsyncConnectionEndpoint> connect(final AsyncConnectionEndpoint endpoint,
                                                   final ConnectionInitiator initiator, final Timeout connectTimeout,
                                                   final Object attachment, final HttpContext context,
                                                   final FutureCallback<AsyncConnectionEndpoint> callback) {
        final ResponseCollector collector = context == null ? null
                : context.getAttribute(COLLECTOR) instanceof ResponseCollector c ? c : null;
        if (collector == null) {
            return pool.connect(endpoint, initiator, connectTimeout, attachment, context, callback);
        }
        collector.markConnectStart(clock.nanoTime());
        return pool.connect(endpoint, initiator, connectTimeout, attachment, context, new FutureCallback<>() {
            @Override
            public void completed(final AsyncConnectionEndpoint result) {
                collector.markConnectDone(clock.nanoTime());
                if (callback != null) {
                    callback.completed(result);
                }
            }

            @Override
            public void failed(final Exception ex) {
                if (callback != null) {
                    callback.failed(ex);
                }
            }

            @Override
            public void cancelled() {
                if (callback != null) {
                    callback.cancelled();
                }
            }
        });
    }

    @Override
    public void upgrade(final AsyncConnectionEndpoint endpoint, final Object attachment, final HttpContext context) {
        pool.upgrade(endpoint, attachment, context);
    }

    @Override
    public void upgrade(final AsyncConnectionEndpoint endpoint, final Object attachment, final HttpContext context,
                        final FutureCallback<AsyncConnectionEndpoint> callback) {
        pool.upgrade(endpoint, attachment, context, callback);
    }

    @Override
    public void close(final CloseMode closeMode) {
        pool.close(closeMode);
    }

    @Override
    public void close() throws java.io.IOException {
        pool.close();
    }
}
