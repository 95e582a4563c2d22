package io.aiperf.engine.run;

import io.aiperf.engine.config.PhaseConfig;
import org.HdrHistogram.Histogram;

/** A phase as the orchestrator drives it; {@link PhaseRunner} is the real one, tests may fake it. */
public interface Phase {
    PhaseConfig phase();

    void startSending();

    void awaitSendComplete() throws InterruptedException;

    PhaseResult awaitDrain() throws InterruptedException;

    /** Requests handed to the transport so far. */
    long issuedCount();

    long completedCount();

    long errorCount();

    int inFlightCount();

    /** Why the phase stopped early on its own (its failed-request threshold), or null. */
    default String abortReason() {
        return null;
    }

    /** When the phase started sending, on the run's clock; 0 before it started. */
    default long startedNanos() {
        return 0;
    }

    /** Latency of requests completed since the last call, in microseconds (for the live progress line only). */
    Histogram intervalLatencyMicros();
}
