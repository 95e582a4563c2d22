package io.aiperf.engine.record;

/**
 * How a request got onto the wire (monotonic ns): the time from handing it to the transport until its head was
 * written is queueing (the connection pool, a connect) that AIPerf's latencies, measured from the write, leave out.
 *
 * @param issuedNanos when the request was handed to the transport
 * @param connectStartNanos when a new connection for it was started, or -1 when a pooled one was reused
 * @param connectDoneNanos when that connection was ready, or -1
 * @param retried the request was sent a second time because its kept-alive connection closed before any byte of
 *                the answer
 * @param redirects redirects (307, 308) followed on the way to the answer
 * @param closesAfterResponse it got a connection of its own because its server closes connections after its
 *                            answers (src-docs/failure-modes.md)
 * @param wire what the response looked like on the wire (for {@code --export-http-trace}), or {@link Wire#NONE}
 */
public record TransportTimes(long issuedNanos, long connectStartNanos, long connectDoneNanos, boolean retried,
                             int redirects, boolean closesAfterResponse, Wire wire) {
    public static final TransportTimes NONE = new TransportTimes(-1, -1, -1, false);

    /**
     * The response as the transport read it (monotonic ns): a handful of numbers kept for every request, so the HTTP
     * trace (src-docs/exports.md) costs nothing when it is not asked for.
     *
     * @param status the HTTP status, or 0 when no head arrived
     * @param reason the status line's reason phrase, or null
     * @param firstByteNanos when the first body bytes arrived, or -1
     * @param lastByteNanos when the last body bytes arrived, or -1
     * @param bytesReceived body bytes read
     * @param reads socket reads (or body buffers) that carried body bytes
     * @param writtenNanos when the whole request had been handed to the socket, or -1 when not stamped (the HTTP/2
     *                     client stamps only the start of its write)
     * @param bytesSent the request body's bytes, or -1 when not known
     * @param newConnection the request was the first on its connection (one opened ahead of the load too)
     */
    public record Wire(int status, String reason, long firstByteNanos, long lastByteNanos, long bytesReceived,
                       int reads, long writtenNanos, long bytesSent, boolean newConnection) {
        public static final Wire NONE = new Wire(0, null, -1, -1, 0, 0);

        /** A response whose request's write end, size and connection are not known. */
        public Wire(final int status, final String reason, final long firstByteNanos, final long lastByteNanos,
                    final long bytesReceived, final int reads) {
            this(status, reason, firstByteNanos, lastByteNanos, bytesReceived, reads, -1, -1, false);
        }
    }

    public TransportTimes(final long issuedNanos, final long connectStartNanos, final long connectDoneNanos,
                          final boolean retried, final int redirects, final boolean closesAfterResponse) {
        this(issuedNanos, connectStartNanos, connectDoneNanos, retried, redirects, closesAfterResponse, Wire.NONE);
    }

    public TransportTimes(final long issuedNanos, final long connectStartNanos, final long connectDoneNanos,
                          final boolean retried) {
        this(issuedNanos, connectStartNanos, connectDoneNanos, retried, 0, false);
    }

    /** Wait for a pooled connection, up to the start of a connect or the write: NaN when not stamped. */
    public double poolWaitNanos(final long writtenNanos) {
        if (issuedNanos < 0) {
            return Double.NaN;
        }
        return Math.max(0, (connectStartNanos >= 0 ? connectStartNanos : writtenNanos) - issuedNanos);
    }

    /** How long a new connection took to open, or NaN when a pooled one was reused. */
    public double connectNanos() {
        return connectStartNanos < 0 || connectDoneNanos < 0 ? Double.NaN : connectDoneNanos - connectStartNanos;
    }
}
