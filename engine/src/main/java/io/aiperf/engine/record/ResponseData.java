package io.aiperf.engine.record;

/**
 * What came back for one request, stamped on byte arrival (monotonic nanoseconds).
 *
 * @param startPerfNanos when the request head was written to its connection (after any retry), which is where
 *                       AIPerf's latencies start
 * @param ackPerfNanos when the response head arrived, or -1
 * @param contentPerfNanos arrival times of the responses that carried content; only the first
 *                         {@code contentCount} entries are used
 * @param firstOutputIndex the first of {@code contentPerfNanos} whose response carried answer text (not reasoning),
 *                         or -1
 * @param content all content text joined, or null
 * @param reasoning all reasoning text joined, or null
 * @param error why the request failed, or null
 * @param malformedChunks SSE events whose data was not valid JSON (skipped, as AIPerf does, but counted)
 * @param transport how the request got onto the wire
 * @param streamed the answer came as an event stream; false for a plain JSON body, even to a streaming request
 *                 (then there is no TTFT or ITL to measure, as upstream AIPerf tags only streamed records)
 * @param firstChunkTokens the cumulative {@code completion_tokens} of the usage on the first content chunk that
 *                         carried one (per-chunk usage, {@code --per-chunk-usage}), or -1
 */
public record ResponseData(long startPerfNanos, long ackPerfNanos, long[] contentPerfNanos, int contentCount,
                           int firstOutputIndex, String content, String reasoning, Usage usage, ErrorDetails error, int malformedChunks,
                           TransportTimes transport, boolean streamed, int firstChunkTokens) {

    /** An answer without per-chunk usage. */
    public ResponseData(final long startPerfNanos, final long ackPerfNanos, final long[] contentPerfNanos,
                        final int contentCount, final int firstOutputIndex, final String content, final String reasoning,
                        final Usage usage, final ErrorDetails error, final int malformedChunks,
                        final TransportTimes transport, final boolean streamed) {
        this(startPerfNanos, ackPerfNanos, contentPerfNanos, contentCount, firstOutputIndex, content, reasoning, usage,
                error, malformedChunks, transport, streamed, -1);
    }

    /** An answer that came as it was asked for (streamed when the request streamed). */
    public ResponseData(final long startPerfNanos, final long ackPerfNanos, final long[] contentPerfNanos,
                        final int contentCount, final int firstOutputIndex, final String content, final String reasoning,
                        final Usage usage, final ErrorDetails error, final int malformedChunks,
                        final TransportTimes transport) {
        this(startPerfNanos, ackPerfNanos, contentPerfNanos, contentCount, firstOutputIndex, content, reasoning, usage,
                error, malformedChunks, transport, true);
    }

    /** The record of a request that failed before any response, with nothing else known. */
    public static ResponseData failed(final long startPerfNanos, final ErrorDetails error) {
        return new ResponseData(startPerfNanos, -1, new long[0], 0, -1, null, null, null, error, 0, TransportTimes.NONE);
    }

    public boolean hasContent() {
        return contentCount > 0;
    }

    public long firstContentNanos() {
        return contentPerfNanos[0];
    }

    public long lastContentNanos() {
        return contentPerfNanos[contentCount - 1];
    }
}
