package io.aiperf.engine.metrics;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Upstream AIPerf 0.13's HTTP trace metrics in the catalogue: k6's {@code http_req_*} names, upstream's headers and
 * units, in its display order. Per request (valid requests, as upstream), in every record and in the summary's JSON
 * and CSV, never in the console's metrics table (upstream shows them only under {@code --show-trace-timing}).
 * Their values come from {@link HttpMetrics}.
 */
public final class HttpTraceMetrics {
    private static final double NS_TO_MS = 1e6;
    private static final double BYTES_TO_KB = 1024;

    public static final MetricSpec BLOCKED = ms("http_req_blocked", "HTTP Blocked", HttpMetrics::blockedNanos);
    public static final MetricSpec DNS_LOOKUP = ms("http_req_dns_lookup", "HTTP DNS Lookup", HttpMetrics::dnsLookupNanos);
    public static final MetricSpec CONNECTING = ms("http_req_connecting", "HTTP Connecting", HttpMetrics::connectingNanos);
    public static final MetricSpec SENDING = ms("http_req_sending", "HTTP Sending", HttpMetrics::sendingNanos);
    public static final MetricSpec WAITING = ms("http_req_waiting", "HTTP Waiting (TTFB)", HttpMetrics::waitingNanos);
    public static final MetricSpec RECEIVING = ms("http_req_receiving", "HTTP Receiving", HttpMetrics::receivingNanos);
    public static final MetricSpec CONNECTION_REUSED = of("http_req_connection_reused", "HTTP Connection Reused", "ratio", 1, HttpMetrics::connectionReused);
    public static final MetricSpec DATA_SENT = of("http_req_data_sent", "HTTP Data Sent", "KB", BYTES_TO_KB, HttpMetrics::dataSentBytes);
    public static final MetricSpec CHUNKS_SENT = of("http_req_chunks_sent", "HTTP Chunks Sent", "count", 1, HttpMetrics::chunksSent);
    public static final MetricSpec DATA_RECEIVED = of("http_req_data_received", "HTTP Data Received", "KB", BYTES_TO_KB, HttpMetrics::dataReceivedBytes);
    public static final MetricSpec CHUNKS_RECEIVED = of("http_req_chunks_received", "HTTP Chunks Received", "count", 1, HttpMetrics::chunksReceived);
    public static final MetricSpec CONNECTION_OVERHEAD = ms("http_req_connection_overhead", "HTTP Connection Overhead", HttpMetrics::connectionOverheadNanos);
    public static final MetricSpec DURATION = ms("http_req_duration", "HTTP Duration (excl. conn)", HttpMetrics::durationNanos);
    public static final MetricSpec TOTAL = ms("http_req_total", "HTTP Total Time", HttpMetrics::totalNanos);

    /** In upstream's display order (the order of {@code --show-trace-timing}'s table). */
    public static final List<MetricSpec> ALL = List.of(BLOCKED, DNS_LOOKUP, CONNECTING, SENDING, WAITING, RECEIVING,
            CONNECTION_REUSED, DATA_SENT, CHUNKS_SENT, DATA_RECEIVED, CHUNKS_RECEIVED, CONNECTION_OVERHEAD, DURATION,
            TOTAL);

    private HttpTraceMetrics() {
    }

    private static MetricSpec ms(final String tag, final String header, final ToDoubleFunction<HttpMetrics> value) {
        return of(tag, header, "ms", NS_TO_MS, value);
    }

    private static MetricSpec of(final String tag, final String header, final String unit, final double toDisplay,
                                 final ToDoubleFunction<HttpMetrics> value) {
        return MetricSpec.record(tag, header, unit, false, toDisplay, m -> value.applyAsDouble(m.http()), false,
                false);
    }
}
