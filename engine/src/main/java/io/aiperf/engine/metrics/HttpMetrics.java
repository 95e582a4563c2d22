package io.aiperf.engine.metrics;

import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;

/**
 * Upstream AIPerf 0.13's HTTP trace metrics of one request (k6's phases, {@link HttpTraceMetrics}), in stored units
 * (nanoseconds, bytes, counts), NaN where absent. They come from the stamps the transport keeps for every request:
 * handed over, connect start and end, write start and end, first and last body bytes, and its counts. Immutable.
 *
 * @param blockedNanos from the hand-over to the transport until a connect started or, on a ready connection, the
 *                     write started: the wait for a connection
 * @param dnsLookupNanos always 0: a host is resolved once per origin, before the load, never per request
 * @param connectingNanos the connect (TLS included) the request waited for, 0 on a ready connection
 * @param sendingNanos the write of the request: from its start until the whole request was handed to the socket
 * @param waitingNanos from the end of the write to the first body bytes (time to first byte)
 * @param receivingNanos from the first to the last body bytes, 0 when the body came in one read
 * @param durationNanos the exchange without the connection: from the write's start to the last body bytes
 * @param connectionOverheadNanos blocked + DNS lookup + connecting
 * @param totalNanos the connection overhead plus sending, waiting and receiving
 * @param dataSentBytes the request body's bytes
 * @param dataReceivedBytes the response body's bytes
 * @param chunksSent the writes that carried the body: 1 (head and body go to the socket in one write)
 * @param chunksReceived the socket reads that carried body bytes
 * @param connectionReused 1 when the request went out on a connection an earlier request used, else 0
 */
public record HttpMetrics(double blockedNanos, double dnsLookupNanos, double connectingNanos, double sendingNanos,
                          double waitingNanos, double receivingNanos, double durationNanos,
                          double connectionOverheadNanos, double totalNanos, double dataSentBytes,
                          double dataReceivedBytes, double chunksSent, double chunksReceived,
                          double connectionReused) {
    private static final double NO = Double.NaN;

    /** A request with no response body timed: no HTTP trace metric. */
    public static final HttpMetrics NONE = new HttpMetrics(NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO);

    /** The metrics of {@code r}'s exchange, or {@link #NONE} when no body bytes of its answer were timed. */
    public static HttpMetrics of(final RequestRecord r) {
        final ResponseData d = r.response();
        final TransportTimes t = d.transport();
        if (t == null || t.wire().firstByteNanos() < 0 || t.wire().reads() == 0) {
            return NONE;
        }
        final TransportTimes.Wire w = t.wire();
        final long start = d.startPerfNanos();
        final long written = w.writtenNanos() >= 0 ? w.writtenNanos() : start;
        final boolean connected = t.connectStartNanos() >= 0 && t.connectDoneNanos() >= t.connectStartNanos();
        final double blocked = t.issuedNanos() < 0 ? 0
                : Math.max(0, (t.connectStartNanos() >= 0 ? t.connectStartNanos() : start) - t.issuedNanos());
        final double dns = 0;
        final double connecting = connected ? t.connectDoneNanos() - t.connectStartNanos() : 0;
        final double sending = Math.max(0, written - start);
        final double waiting = Math.max(0, w.firstByteNanos() - written);
        final double receiving = w.reads() <= 1 ? 0 : Math.max(0, w.lastByteNanos() - w.firstByteNanos());
        final double duration = Math.max(0, w.lastByteNanos() - start);
        final double overhead = blocked + dns + connecting;
        final boolean sizeKnown = w.bytesSent() >= 0;
        return new HttpMetrics(blocked, dns, connecting, sending, waiting, receiving, duration, overhead,
                overhead + sending + waiting + receiving, sizeKnown ? w.bytesSent() : NO, w.bytesReceived(),
                sizeKnown ? Math.min(1, w.bytesSent()) : NO, w.reads(),
                w.newConnection() || t.connectStartNanos() >= 0 ? 0 : 1);
    }
}
