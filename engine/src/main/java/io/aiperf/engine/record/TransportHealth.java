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
 * @param retries requests sent a second time because their first connection was found closed before they reached
 *                the server
 * @param malformedChunks SSE events whose data was not valid JSON (skipped and counted)
 */
public record TransportHealth(long requests, double poolWaitP50Millis, double poolWaitP99Millis,
                              double poolWaitMaxMillis, long connects, double connectMaxMillis, long retries,
                              long malformedChunks) {
}
