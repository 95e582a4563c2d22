package io.aiperf.engine.client;

import io.aiperf.engine.record.ResponseData;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hc.core5.concurrent.FutureCallback;

/**
 * One request on the lean HTTP/1.1 transport, from its hand-over until its one outcome. {@link #cancel} may be
 * called from any thread; everything else runs on the owning event loop. Only {@code cancel} is meant for callers:
 * the outcome arrives through the callback, never through {@code get}.
 */
final class Http1Exchange implements Future<Void> {
    /** What is sent, and where: a followed redirect changes both; event loop only after the hand-over. */
    PreparedRequest request;
    final String requestId;
    final String correlationId;
    final ResponseCollector collector;
    final FutureCallback<ResponseData> callback;
    /** Runs once the whole request is written (a requested cancellation counts from then); may be null. */
    final Runnable onWritten;
    final Http1Loop loop;
    Http1Origin origin;
    /** Redirects followed so far. */
    int redirects;
    /** When the whole request runs out of time (monotonic ns), or {@code Long.MAX_VALUE}. */
    final long deadlineNanos;
    /** What a missed deadline does (the request's handle expires, which cancels this exchange). */
    final Runnable onExpire;
    Http1Connection connection; // event loop only
    /** Neighbours in the loop's deadline order, while linked there; event loop only. */
    Http1Exchange earlier;
    Http1Exchange later;
    boolean timed;
    private volatile boolean done;
    private volatile boolean cancelled;

    Http1Exchange(final PreparedRequest request, final String requestId, final String correlationId,
                  final ResponseCollector collector, final FutureCallback<ResponseData> callback,
                  final Runnable onWritten, final Http1Loop loop, final Http1Origin origin,
                  final long deadlineNanos, final Runnable onExpire) {
        this.request = request;
        this.requestId = requestId;
        this.correlationId = correlationId;
        this.collector = collector;
        this.callback = callback;
        this.onWritten = onWritten;
        this.loop = loop;
        this.origin = origin;
        this.deadlineNanos = deadlineNanos;
        this.onExpire = onExpire;
    }

    /** Marks the outcome as reported; false when it already was (the outcome is reported exactly once). */
    boolean finish() {
        if (done) {
            return false;
        }
        done = true;
        return true;
    }

    @Override
    public boolean cancel(final boolean mayInterruptIfRunning) {
        if (done || cancelled) {
            return false;
        }
        cancelled = true;
        loop.execute(() -> loop.abort(this));
        return true;
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    @Override
    public boolean isDone() {
        return done;
    }

    @Override
    public Void get() {
        throw new UnsupportedOperationException("the outcome is reported through the callback");
    }

    @Override
    public Void get(final long timeout, final TimeUnit unit) {
        throw new UnsupportedOperationException("the outcome is reported through the callback");
    }
}
