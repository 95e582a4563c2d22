package io.aiperf.engine.export;

import io.aiperf.engine.metrics.HttpMetrics;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;
import io.aiperf.engine.summary.JsonLineWriter;
import io.aiperf.engine.summary.RecordCodec;
import io.aiperf.engine.time.WallClock;

/**
 * Upstream AIPerf's HTTP trace of one request ({@code --export-http-trace}, its HTTP trace metrics guide): the
 * {@code trace_data} object, from the stamps the transport keeps for every request (when it was handed over, the
 * pool wait, the connect, the write's start and end, the response head, the first and last body bytes) and the
 * durations of {@link HttpMetrics}, which every record carries as its {@code http_req_*} metrics. A phase the
 * engine does not see apart (DNS is resolved once per origin, the head and body go out in one write) is left out
 * rather than guessed (src-docs/exports.md, "HTTP trace").
 */
public final class HttpTrace {
    private HttpTrace() {
    }

    /** The record's {@code trace_data} object: wall-clock stamps (ns since the epoch) and computed durations. */
    static void writeTraceData(final JsonLineWriter g, final RequestRecord r, final WallClock wall) {
        final ResponseData d = r.response();
        final TransportTimes t = d.transport();
        final TransportTimes.Wire w = t.wire();
        final HttpMetrics m = HttpMetrics.of(r);
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
        } else if (t.issuedNanos() >= 0 && !w.newConnection()) { // a first request on a connection opened ahead: neither
            stamp(g, wall, "connection_reused_ns", d.startPerfNanos());
        }
        final long written = w.writtenNanos() >= 0 ? w.writtenNanos() : d.startPerfNanos();
        stamp(g, wall, "request_send_start_ns", d.startPerfNanos());
        stamp(g, wall, "request_headers_sent_ns", written); // head and body go to the socket in one write
        stamp(g, wall, "request_send_end_ns", written);
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
        nanos(g, "blocked_ns", m.blockedNanos());
        nanos(g, "connecting_ns", m.connectingNanos());
        nanos(g, "sending_ns", m.sendingNanos());
        nanos(g, "waiting_ns", m.waitingNanos());
        nanos(g, "receiving_ns", m.receivingNanos());
        nanos(g, "duration_ns", m.durationNanos());
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
}
