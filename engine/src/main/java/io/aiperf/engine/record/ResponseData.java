package io.aiperf.engine.record;

/**
 * What came back for one request, stamped on byte arrival (monotonic nanoseconds).
 *
 * @param startPerfNanos when the request was handed to the transport (after any reuse retry)
 * @param ackPerfNanos when the response head arrived, or -1
 * @param contentPerfNanos arrival times of the responses that carried content; only the first
 *                         {@code contentCount} entries are used
 * @param content all content text joined, or null
 * @param reasoning all reasoning text joined, or null
 * @param error why the request failed, or null
 */
public record ResponseData(long startPerfNanos, long ackPerfNanos, long[] contentPerfNanos, int contentCount,
                           String content, String reasoning, Usage usage, ErrorDetails error) {

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
