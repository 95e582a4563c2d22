package io.aiperf.engine.record;

/**
 * How a request got onto the wire (monotonic ns): the time from handing it to the transport until its head was
 * written is queueing (the connection pool, a connect) that AIPerf's latencies, measured from the write, leave out.
 *
 * @param issuedNanos when the request was handed to the transport
 * @param connectStartNanos when a new connection for it was started, or -1 when a pooled one was reused
 * @param connectDoneNanos when that connection was ready, or -1
 * @param retried the request was sent a second time because its first connection was found closed before the
 *                server read it
 * @param redirects redirects (307, 308) followed on the way to the answer
 * @param closesAfterResponse it got a connection of its own because its server closes connections after its
 *                            answers (src-docs/failure-modes.md)
 */
public record TransportTimes(long issuedNanos, long connectStartNanos, long connectDoneNanos, boolean retried,
                             int redirects, boolean closesAfterResponse) {
    public static final TransportTimes NONE = new TransportTimes(-1, -1, -1, false);

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
