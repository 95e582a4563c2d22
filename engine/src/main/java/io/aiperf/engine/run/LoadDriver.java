package io.aiperf.engine.run;

/** Decides when a phase sends: a closed loop or an open loop (AIPerf's timing and load docs). */
interface LoadDriver {
    /** Starts sending; returns at once. */
    void start(long phaseStartNanos);

    /** A request of the phase finished (once per request): a slot or a credit is free again. */
    void onComplete();

    /** Waits a little for the driver's own thread, if it has one, after sending stopped. */
    default void join() throws InterruptedException {
    }
}
