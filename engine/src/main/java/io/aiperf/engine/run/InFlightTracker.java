package io.aiperf.engine.run;

import io.aiperf.engine.client.InFlight;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The requests of one phase that are on the wire. Each request is finished exactly once: its record goes to the
 * sink and it leaves the set in one step, so a drain that sees the set empty has seen every record, a transport
 * that reports twice cannot free two slots, and an outcome that arrives after the grace period (the request was
 * abandoned) is dropped. Thread-safe.
 */
final class InFlightTracker {
    private final Map<Integer, InFlight> requests = new HashMap<>(); // guarded by this
    private final Consumer<RequestRecord> sink;
    private boolean closed; // guarded by this

    InFlightTracker(final Consumer<RequestRecord> sink) {
        this.sink = sink;
    }

    synchronized InFlight register(final int index) {
        final InFlight handle = new InFlight();
        requests.put(index, handle);
        return handle;
    }

    synchronized InFlight handle(final int index) {
        return requests.get(index);
    }

    /**
     * Finishes request {@code index} with its record (null when no record could be built).
     *
     * @return false when the request was already finished or abandoned: the caller must not free its slot again
     */
    synchronized boolean finish(final int index, final RequestRecord record) {
        if (closed || requests.remove(index) == null) {
            return false;
        }
        if (record != null) {
            sink.accept(record);
        }
        if (requests.isEmpty()) {
            notifyAll();
        }
        return true;
    }

    synchronized int size() {
        return requests.size();
    }

    /**
     * Waits until nothing is in flight, or the deadline passes; the deadline is read again on every wake-up, so a
     * cancellation can shorten it.
     *
     * @return whether everything finished
     */
    synchronized boolean awaitEmpty(final Clock clock, final LongSupplier deadlineNanos) throws InterruptedException {
        while (!requests.isEmpty()) {
            final long left = deadlineNanos.getAsLong() - clock.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, Math.min(100, left / 1_000_000L)));
        }
        return true;
    }

    /** Closes the set: what is still in flight is cancelled and its outcome dropped. Returns how many were left. */
    long abandonRest() {
        final List<InFlight> rest;
        synchronized (this) {
            closed = true;
            rest = new ArrayList<>(requests.values());
            requests.clear();
        }
        rest.forEach(InFlight::cancel);
        return rest.size();
    }
}
