package io.aiperf.engine.client;

import java.util.concurrent.Future;

/**
 * A request on the wire, as the runner holds it: {@link #cancel()} abandons it, whenever it comes. A cancel
 * that lands before the transport has attached its future (or between a retry's attempts) is remembered and
 * applied on attach, so no request escapes its timeout or the end of the grace period. Thread-safe.
 */
public final class InFlight {
    private Future<?> current; // guarded by this
    private boolean cancelled; // guarded by this
    private volatile boolean expired;
    private volatile long cancelAfterSentNanos = -1;
    private volatile long requestedCancelNanos = -1;
    private volatile Runnable onFirstContent;

    /** Attaches the future of the current attempt; cancels it at once when the request was already cancelled. */
    void attach(final Future<?> attempt) {
        final boolean cancelNow;
        synchronized (this) {
            current = attempt;
            cancelNow = cancelled;
        }
        if (cancelNow) {
            attempt.cancel(true);
        }
    }

    /**
     * Asks for the request to be cancelled this long after it is fully sent (AIPerf's
     * {@code --request-cancellation-rate}); set before the request is handed to the transport.
     */
    public void cancelAfterSent(final long nanos) {
        cancelAfterSentNanos = nanos;
    }

    long cancelAfterSentNanos() {
        return cancelAfterSentNanos;
    }

    /** The cancellation asked for fired at {@code nanos} (monotonic). */
    void requestedCancel(final long nanos) {
        requestedCancelNanos = nanos;
        cancel();
    }

    /** When a requested cancellation fired (monotonic ns), or -1. */
    public long requestedCancelNanos() {
        return requestedCancelNanos;
    }

    /**
     * Runs {@code action} once, on the I/O thread, when the first content of the answer arrives (AIPerf's prefill
     * concurrency frees its slot then); set before the request is handed to the transport.
     */
    public void onFirstContent(final Runnable action) {
        onFirstContent = action;
    }

    /** The answer's first content arrived. */
    void firstContent() {
        final Runnable action = onFirstContent;
        if (action != null) {
            onFirstContent = null;
            action.run();
        }
    }

    /** The request's whole-request timeout fired. */
    void expire() {
        expired = true;
        cancel();
    }

    boolean expired() {
        return expired;
    }

    public synchronized boolean isCancelled() {
        return cancelled;
    }

    public void cancel() {
        final Future<?> attempt;
        synchronized (this) {
            cancelled = true;
            attempt = current;
        }
        if (attempt != null) {
            attempt.cancel(true);
        }
    }
}
