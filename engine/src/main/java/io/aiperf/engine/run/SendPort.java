package io.aiperf.engine.run;

/** What a load driver needs from its phase: the next request, sending it, and whether to stop. */
interface SendPort {
    /** Claims the next request's index and registers it as in flight, or returns -1 when sending has stopped. */
    int claim();

    /**
     * Sends a claimed request; never throws (a failed send becomes an error record).
     *
     * @param intendedNanos the schedule's time for it (open loop), or -1
     */
    void send(int index, long intendedNanos);

    /** Whether sending must end now (cancelled, or the duration is over); when so, sending is stopped. */
    boolean mustStop();
}
