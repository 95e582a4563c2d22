package io.aiperf.engine.record;

import java.util.Map;

/**
 * Upstream AIPerf's names for transport failures. Upstream records the Python exception's class name (its HTTP
 * client's, or a built-in one); a Java exception with an obvious Python counterpart is renamed to it, so records and
 * error summaries group and read as upstream's do, and the Java class stays at the start of the message.
 */
public final class ErrorTypes {
    private static final Map<String, String> UPSTREAM = Map.ofEntries(
            Map.entry("TimeoutException", "TimeoutError"),
            Map.entry("SocketTimeoutException", "TimeoutError"),
            Map.entry("HttpTimeoutException", "TimeoutError"),
            Map.entry("HttpConnectTimeoutException", "TimeoutError"),
            Map.entry("ConnectTimeoutException", "TimeoutError"),
            Map.entry("InterruptedByTimeoutException", "TimeoutError"),
            Map.entry("ConnectException", "ConnectionRefusedError"),
            Map.entry("HttpHostConnectException", "ConnectionRefusedError"),
            Map.entry("ConnectionClosedException", "ServerDisconnectedError"),
            Map.entry("EOFException", "ServerDisconnectedError"),
            Map.entry("ClosedChannelException", "ServerDisconnectedError"),
            // a kept-alive connection closed before any byte of the answer, not resent (--no-retry-unsent)
            Map.entry("RequestNotExecutedException", "ServerDisconnectedError"),
            Map.entry("SSLException", "SSLError"),
            Map.entry("SSLHandshakeException", "SSLError"),
            Map.entry("CancellationException", "RequestCancellationError"));

    private ErrorTypes() {
    }

    /** {@code e} under upstream's type name when there is one (transport failures only: HTTP errors keep theirs). */
    public static ErrorDetails upstreamStyle(final ErrorDetails e) {
        final String type = e == null || e.code() != null ? null : UPSTREAM.get(e.type());
        if (type == null) {
            return e;
        }
        return new ErrorDetails(null, type, e.message() == null || e.message().equals(e.type()) ? e.type()
                : e.type() + ": " + e.message());
    }

    /** {@code r} with its error renamed by {@link #upstreamStyle}, or {@code r} itself. */
    public static ResponseData upstreamStyle(final ResponseData r) {
        final ErrorDetails e = upstreamStyle(r.error());
        return e == r.error() ? r : new ResponseData(r.startPerfNanos(), r.ackPerfNanos(), r.contentPerfNanos(),
                r.contentCount(), r.firstOutputIndex(), r.content(), r.reasoning(), r.usage(), e, r.malformedChunks(),
                r.transport(), r.streamed(), r.firstChunkTokens());
    }
}
