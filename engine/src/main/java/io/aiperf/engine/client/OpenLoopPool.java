package io.aiperf.engine.client;

/**
 * How many connections an open loop needs before its profiling phase, and how many it keeps spare while it runs
 * (src-docs/performance.md). By Little's law the mean number of requests in flight is the rate times the mean
 * latency; after a stall the loop sends up to {@link io.aiperf.engine.record.OpenLoopHealth#CATCHUP_SECONDS} of
 * due arrivals at once, and each of those needs a connection at that moment, so the pool is sized for both. While
 * the phase runs a quarter of that is kept idle or connecting, so a burst beyond the estimate finds connections
 * open and the pool grows before the requests have to wait for it.
 *
 * @param connections connections to have open when the phase starts
 * @param spares connections kept idle or connecting from then on
 */
public record OpenLoopPool(int connections, int spares) {
    /** Never fewer spares than this: a handful of connects in reserve costs nothing. */
    static final int MIN_SPARES = 4;

    /**
     * @param rate the phase's arrivals per second
     * @param meanLatencySeconds mean time from request written to answer's end, measured before (0 when unknown)
     * @param limit the most connections the pool may hold
     */
    public static OpenLoopPool of(final double rate, final double meanLatencySeconds, final int limit) {
        final double inFlight = rate * (Math.max(0, meanLatencySeconds)
                + io.aiperf.engine.record.OpenLoopHealth.CATCHUP_SECONDS);
        final int connections = (int) Math.min(limit, Math.ceil(inFlight));
        return new OpenLoopPool(connections, Math.min(limit, Math.max(MIN_SPARES, (connections + 3) / 4)));
    }
}
