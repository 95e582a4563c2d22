package io.aiperf.engine.record;

/**
 * How requests got onto the wire during a phase (src-docs/exports.md, {@code client_health.transport}): time spent
 * waiting for a connection and opening one is queueing in the client, invisible in AIPerf's latencies.
 *
 * @param requests requests counted
 * @param poolWaitP50Millis median wait from handing a request to the transport until a connection was ready or
 *                          a connect began
 * @param poolWaitP99Millis 99th percentile of that wait
 * @param poolWaitMaxMillis the longest such wait
 * @param connects new connections opened
 * @param connectMaxMillis the slowest connect
 * @param retries requests sent a second time, on a new connection, because their kept-alive connection closed
 *                before any byte of the answer
 * @param malformedChunks SSE events whose data was not valid JSON (skipped and counted)
 * @param redirects redirects followed (307, 308): each adds a round trip to what is measured
 * @param serverClosesAfterResponse the server was seen closing connections right after its answers, so requests
 *                                  got connections of their own (src-docs/failure-modes.md)
 * @param connectsOpened connections the lean transport opened while the profiling window was open, ahead of demand
 *                       or for a waiting request (a pool that grows ahead of the load opens them before any request
 *                       waits; {@code connects} counts only the requests that waited for theirs)
 */
public record TransportHealth(long requests, double poolWaitP50Millis, double poolWaitP99Millis,
                              double poolWaitMaxMillis, long connects, double connectMaxMillis, long retries,
                              long malformedChunks, long redirects, boolean serverClosesAfterResponse,
                              long connectsOpened) {
    public TransportHealth(final long requests, final double poolWaitP50Millis, final double poolWaitP99Millis,
                           final double poolWaitMaxMillis, final long connects, final double connectMaxMillis,
                           final long retries, final long malformedChunks, final long redirects,
                           final boolean serverClosesAfterResponse) {
        this(requests, poolWaitP50Millis, poolWaitP99Millis, poolWaitMaxMillis, connects, connectMaxMillis, retries,
                malformedChunks, redirects, serverClosesAfterResponse, 0);
    }

    /** The same, with the connections opened during the profiling window. */
    public TransportHealth withConnectsOpened(final long opened) {
        return new TransportHealth(requests, poolWaitP50Millis, poolWaitP99Millis, poolWaitMaxMillis, connects,
                connectMaxMillis, retries, malformedChunks, redirects, serverClosesAfterResponse, opened);
    }

    public TransportHealth(final long requests, final double poolWaitP50Millis, final double poolWaitP99Millis,
                           final double poolWaitMaxMillis, final long connects, final double connectMaxMillis,
                           final long retries, final long malformedChunks) {
        this(requests, poolWaitP50Millis, poolWaitP99Millis, poolWaitMaxMillis, connects, connectMaxMillis, retries,
                malformedChunks, 0, false);
    }
}
