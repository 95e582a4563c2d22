package io.aiperf.engine.export;

import com.fasterxml.jackson.core.JsonGenerator;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;
import io.aiperf.engine.summary.RecordCodec;
import io.aiperf.engine.time.WallClock;
import java.io.IOException;

/**
 * Upstream AIPerf's HTTP trace of one request ({@code --export-http-trace}, its HTTP trace metrics guide), built from
 * the stamps the transport keeps for every request: when it was handed over, the pool wait, the connect, the write,
 * the response head, the first and last body bytes. The {@code http_req_*} durations follow k6's names; a phase the
 * engine does not see apart (DNS is inside the connect, the head and body go out in one write) is left out rather
 * than guessed (src-docs/exports.md, "HTTP trace").
 */
public final class HttpTrace {
    /** The k6-style durations of one request, in nanoseconds (NaN where the phase did not happen or is unknown). */
    public record Timing(double blocked, double connecting, double sending, double waiting, double receiving,
                         double duration, double total, boolean reused, long bytesReceived, int reads) {
    }

    private HttpTrace() {
    }

    /** The durations of {@code r}'s exchange. */
    public static Timing timing(final RequestRecord r) {
        final ResponseData d = r.response();
        final TransportTimes t = d.transport();
        final TransportTimes.Wire w = t.wire();
        final long start = d.startPerfNanos();
        final double blocked = t.poolWaitNanos(start);
        final double connect = t.connectNanos();
        final double waiting = w.firstByteNanos() >= 0 ? Math.max(0, w.firstByteNanos() - start) : Double.NaN;
        final double receiving = w.firstByteNanos() >= 0 ? Math.max(0, w.lastByteNanos() - w.firstByteNanos())
                : Double.NaN;
        final long end = w.lastByteNanos() >= 0 ? w.lastByteNanos() : r.endNanos();
        final double duration = end >= 0 ? Math.max(0, end - start) : Double.NaN;
        final double sending = 0; // the head and body are handed to the socket in one write
        final double total = Double.isNaN(waiting) ? Double.NaN
                : zeroIfNaN(blocked) + zeroIfNaN(connect) + sending + waiting + receiving;
        return new Timing(blocked, connect, sending, waiting, receiving, duration, total,
                t.issuedNanos() >= 0 && t.connectStartNanos() < 0, w.bytesReceived(), w.reads());
    }

    /** The record's {@code http_req_*} metrics, in milliseconds as upstream writes them. */
    static void writeMetrics(final JsonGenerator g, final RequestRecord r) throws IOException {
        final Timing m = timing(r);
        millis(g, "http_req_blocked", zeroIfNaN(m.blocked()));
        millis(g, "http_req_connecting", zeroIfNaN(m.connecting()));
        millis(g, "http_req_sending", m.sending());
        millis(g, "http_req_waiting", m.waiting());
        millis(g, "http_req_receiving", m.receiving());
        millis(g, "http_req_duration", m.duration());
        millis(g, "http_req_total", m.total());
        millis(g, "http_req_connection_overhead", zeroIfNaN(m.blocked()) + zeroIfNaN(m.connecting()));
        if (r.response().transport().issuedNanos() >= 0) {
            whole(g, "http_req_connection_reused", m.reused() ? 1 : 0, "boolean");
        }
        whole(g, "http_req_data_received", m.bytesReceived(), "bytes");
        whole(g, "http_req_chunks_received", m.reads(), "count");
    }

    /** The record's {@code trace_data} object: wall-clock stamps (ns since the epoch) and computed durations. */
    static void writeTraceData(final JsonGenerator g, final RequestRecord r, final WallClock wall) throws IOException {
        final ResponseData d = r.response();
        final TransportTimes t = d.transport();
        final TransportTimes.Wire w = t.wire();
        final Timing m = timing(r);
        RecordCodec.startTraceData(g);
        g.writeStringField("trace_type", "aiperf-java");
        if (t.issuedNanos() >= 0) {
            stamp(g, wall, "connection_pool_wait_start_ns", t.issuedNanos());
            stamp(g, wall, "connection_pool_wait_end_ns", t.connectStartNanos() >= 0 ? t.connectStartNanos()
                    : d.startPerfNanos());
        }
        if (t.connectStartNanos() >= 0) {
            stamp(g, wall, "tcp_connect_start_ns", t.connectStartNanos());
            stamp(g, wall, "tcp_connect_end_ns", t.connectDoneNanos());
        } else if (t.issuedNanos() >= 0) {
            stamp(g, wall, "connection_reused_ns", d.startPerfNanos());
        }
        stamp(g, wall, "request_send_start_ns", d.startPerfNanos());
        stamp(g, wall, "request_headers_sent_ns", d.startPerfNanos());
        stamp(g, wall, "request_send_end_ns", d.startPerfNanos());
        if (w.status() > 0) {
            g.writeNumberField("response_status_code", w.status());
            if (w.reason() != null && !w.reason().isEmpty()) {
                g.writeStringField("response_reason", w.reason());
            }
        }
        stamp(g, wall, "response_headers_received_ns", d.ackPerfNanos());
        stamp(g, wall, "response_receive_start_ns", w.firstByteNanos());
        stamp(g, wall, "response_receive_end_ns", w.lastByteNanos());
        if (d.error() != null) {
            stamp(g, wall, "error_timestamp_ns", r.endNanos());
        }
        nanos(g, "blocked_ns", m.blocked());
        nanos(g, "connecting_ns", m.connecting());
        nanos(g, "sending_ns", m.sending());
        nanos(g, "waiting_ns", m.waiting());
        nanos(g, "receiving_ns", m.receiving());
        nanos(g, "duration_ns", m.duration());
        g.writeNumberField("response_bytes", w.bytesReceived());
        g.writeNumberField("response_reads", w.reads());
        if (t.retried()) {
            g.writeBooleanField("retried", true);
        }
        g.writeEndObject();
    }

    private static double zeroIfNaN(final double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    private static void stamp(final JsonGenerator g, final WallClock wall, final String name, final long mono)
            throws IOException {
        if (mono >= 0) {
            g.writeNumberField(name, wall.toEpochNanos(mono));
        }
    }

    private static void nanos(final JsonGenerator g, final String name, final double v) throws IOException {
        if (!Double.isNaN(v)) {
            g.writeNumberField(name, (long) v);
        }
    }

    private static void millis(final JsonGenerator g, final String tag, final double nanos) throws IOException {
        if (!Double.isNaN(nanos)) {
            RecordCodec.startMetric(g, tag);
            g.writeNumber(nanos / 1e6);
            RecordCodec.endMetric(g, "ms");
        }
    }

    private static void whole(final JsonGenerator g, final String tag, final long v, final String unit)
            throws IOException {
        RecordCodec.startMetric(g, tag);
        g.writeNumber(v);
        RecordCodec.endMetric(g, unit);
    }
}
