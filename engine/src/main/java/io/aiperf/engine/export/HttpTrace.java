package io.aiperf.engine.export;

import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;
import io.aiperf.engine.summary.JsonLineWriter;
import io.aiperf.engine.summary.RecordCodec;
import io.aiperf.engine.time.WallClock;

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
    static void writeMetrics(final JsonLineWriter g, final RequestRecord r) {
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
    static void writeTraceData(final JsonLineWriter g, final RequestRecord r, final WallClock wall) {
        final ResponseData d = r.response();
        final TransportTimes t = d.transport();
        final TransportTimes.Wire w = t.wire();
        final Timing m = timing(r);
        RecordCodec.startTraceData(g);
        g.name("trace_type");
        g.value("aiperf-java");
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
            g.name("response_status_code");
            g.value(w.status());
            if (w.reason() != null && !w.reason().isEmpty()) {
                g.name("response_reason");
                g.value(w.reason());
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
        g.name("response_bytes");
        g.value(w.bytesReceived());
        g.name("response_reads");
        g.value(w.reads());
        if (t.retried()) {
            g.name("retried");
            g.value(true);
        }
        g.endObject();
    }

    private static double zeroIfNaN(final double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    private static void stamp(final JsonLineWriter g, final WallClock wall, final String name, final long mono) {
        if (mono >= 0) {
            g.name(name);
            g.value(wall.toEpochNanos(mono));
        }
    }

    private static void nanos(final JsonLineWriter g, final String name, final double v) {
        if (!Double.isNaN(v)) {
            g.name(name);
            g.value((long) v);
        }
    }

    private static void millis(final JsonLineWriter g, final String tag, final double nanos) {
        if (!Double.isNaN(nanos)) {
            RecordCodec.startMetric(g, tag);
            g.value(nanos / 1e6);
            RecordCodec.endMetric(g, "ms");
        }
    }

    private static void whole(final JsonLineWriter g, final String tag, final long v, final String unit) {
        RecordCodec.startMetric(g, tag);
        g.value(v);
        RecordCodec.endMetric(g, unit);
    }
}
