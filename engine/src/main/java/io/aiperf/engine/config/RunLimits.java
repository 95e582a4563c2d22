package io.aiperf.engine.config;

/**
 * Bounds that keep a hostile or broken server from hanging, exhausting or fooling a run ({@code runtime} section,
 * src-docs/failure-modes.md).
 *
 * @param maxErrorRatePct a cell whose error share is above this percentage fails (100: only a cell with no valid
 *                        request fails)
 * @param maxEventBytes the largest SSE event accepted; a larger one fails its request as "too large"
 * @param maxResponseBytes the largest response accepted, streamed or not
 * @param retryUnsent send a request again, once, on a new connection, when no byte of its answer came back and its
 *                    kept-alive connection was found closed before it was written, or closed after (the race with a
 *                    server that ends connections after its answers); a request that got part of its answer, or
 *                    was lost on a connection of its own, is never resent
 * @param cancelRatePct the share of profiling requests cancelled on purpose ({@code --request-cancellation-rate})
 * @param cancelDelaySeconds how long after being fully sent they are cancelled
 * @param leanHttp carry HTTP/1.1 inference requests (http and https) on the engine's own transport ({@code runtime.http_client:
 *                 lean}, the default) rather than Apache HttpClient ({@code apache})
 * @param preconnect open the first phase's connections before its first request is sent
 * @param maxHeadBytes the largest response head (status line and headers) accepted
 */
public record RunLimits(double maxErrorRatePct, long maxEventBytes, long maxResponseBytes, boolean retryUnsent,
                        double cancelRatePct, double cancelDelaySeconds, boolean leanHttp, boolean preconnect,
                        int maxHeadBytes) {
    public static final int DEFAULT_MAX_HEAD_BYTES = 1 << 20;

    public RunLimits(final double maxErrorRatePct, final long maxEventBytes, final long maxResponseBytes,
                     final boolean retryUnsent, final double cancelRatePct, final double cancelDelaySeconds,
                     final boolean leanHttp, final boolean preconnect) {
        this(maxErrorRatePct, maxEventBytes, maxResponseBytes, retryUnsent, cancelRatePct, cancelDelaySeconds,
                leanHttp, preconnect, DEFAULT_MAX_HEAD_BYTES);
    }

    public RunLimits(final double maxErrorRatePct, final long maxEventBytes, final long maxResponseBytes,
                     final boolean retryUnsent, final double cancelRatePct, final double cancelDelaySeconds) {
        this(maxErrorRatePct, maxEventBytes, maxResponseBytes, retryUnsent, cancelRatePct, cancelDelaySeconds, true,
                true);
    }

    public static final long DEFAULT_MAX_EVENT_BYTES = 16L << 20;
    public static final long DEFAULT_MAX_RESPONSE_BYTES = 256L << 20;

    public static RunLimits defaults() {
        return new RunLimits(100, DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_RESPONSE_BYTES, true, 0, 0);
    }
}
