package io.aiperf.engine.run;

/** Decides when a phase sends: a closed loop or an open loop (AIPerf's timing and load docs). */
interface LoadDriver {
    /** Starts sending; returns at once. */
    void start(long phaseStartNanos);

    /** A request of the phase finished (once per request): a slot or a credit is free again. */
    void onComplete();

    /**
     * A session ended (its last turn finished, failed, or found sending stopped): what frees a slot.
     *
     * @param lastSendNanos when its last turn was sent, or -1 if none was
     */
    default void onSessionEnd(final long lastSendNanos) {
        onComplete();
    }

    /** Waits a little for the driver's own thread, if it has one, after sending stopped. */
    default void join() throws InterruptedException {
    }
}
