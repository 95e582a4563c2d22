package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream's HTTP trace metrics in every record and the summary, --export-http-trace and --show-trace-timing, against
 * the real mock (src-docs/exports.md, "HTTP trace").
 */
class HttpTraceEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void eachRecordCarriesItsTraceAndTheConsoleItsTimingTable() throws Exception {
        // TTFT 30 ms, ITL 5 ms: waiting covers the first token, receiving the rest of the stream.
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(30, 5).withErrorRate(25))) {
            final Path dir = tmp.resolve("trace");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "16",
                    "--osl", "6", "--request-count", "16", "--concurrency", "2", "--random-seed", "5",
                    "--tokenizer", "builtin", "--export-http-trace", "--show-trace-timing",
                    "--max-error-rate", "100", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> lines = Runs.jsonl(dir.resolve("profile_export.jsonl"));
            assertThat(lines).hasSize(16);
            int reused = 0;
            int failed = 0;
            for (final JsonNode line : lines) {
                final JsonNode t = line.path("trace_data");
                final JsonNode m = line.path("metadata");
                assertThat(t.isObject()).as(line.toString()).isTrue();
                final long sendStart = t.path("request_send_start_ns").asLong();
                assertThat(sendStart).isEqualTo(m.path("request_start_ns").asLong());
                assertThat(t.path("connection_pool_wait_start_ns").asLong()).isPositive().isLessThanOrEqualTo(sendStart);
                assertThat(t.path("response_headers_received_ns").asLong()).isGreaterThanOrEqualTo(sendStart);
                final long first = t.path("response_receive_start_ns").asLong();
                final long last = t.path("response_receive_end_ns").asLong();
                assertThat(last).isGreaterThanOrEqualTo(first).isGreaterThanOrEqualTo(sendStart);
                final long sendEnd = t.path("request_send_end_ns").asLong();
                assertThat(sendEnd).isGreaterThanOrEqualTo(sendStart).isLessThanOrEqualTo(first);
                assertThat(t.path("waiting_ns").asLong()).isEqualTo(first - sendEnd);
                assertThat(t.path("receiving_ns").asLong()).isEqualTo(last - first);
                assertThat(t.path("response_bytes").asLong()).isPositive();
                if (t.has("connection_reused_ns")) {
                    reused++;
                    assertThat(t.has("tcp_connect_start_ns")).isFalse();
                } else {
                    assertThat(t.path("tcp_connect_end_ns").asLong())
                            .isGreaterThanOrEqualTo(t.path("tcp_connect_start_ns").asLong());
                }
                if (line.path("error").isObject()) {
                    failed++;
                    assertThat(t.path("response_status_code").asInt()).isEqualTo(line.path("error").path("code").asInt());
                    assertThat(t.path("error_timestamp_ns").asLong()).isEqualTo(m.path("request_end_ns").asLong());
                } else {
                    assertThat(t.path("response_status_code").asInt()).isEqualTo(200);
                    // the stream's first bytes carry the first token, 30 ms after the request
                    assertThat(t.path("waiting_ns").asLong()).isGreaterThanOrEqualTo(25_000_000L);
                    // (a busy machine may read the whole rest of the stream at once: receiving can be 0)
                    assertThat(t.path("response_reads").asInt()).isPositive();
                    // the metrics are the trace's durations in ms
                    final JsonNode metrics = line.path("metrics");
                    assertThat(metrics.path("http_req_waiting").path("unit").asText()).isEqualTo("ms");
                    assertThat(metrics.path("http_req_duration").path("value").asDouble() * 1e6)
                            .isCloseTo((double) (last - sendStart), org.assertj.core.data.Offset.offset(1.0));
                    assertThat(metrics.path("http_req_connection_reused").path("value").asInt())
                            .isEqualTo(t.has("connection_reused_ns") ? 1 : 0);
                    assertThat(metrics.path("http_req_chunks_received").path("value").asInt())
                            .isEqualTo(t.path("response_reads").asInt());
                }
            }
            assertThat(reused).as("two connections carry 16 requests").isGreaterThanOrEqualTo(14);
            assertThat(failed).isPositive().isLessThan(16);
            assertThat(r.out()).contains("AIPerf (Java) | HTTP Trace Timing").contains("HTTP Waiting (TTFB) (ms)")
                    .contains("HTTP Receiving (ms)").contains("HTTP Connection Reused (ratio)")
                    .contains("HTTP Duration (excl. conn) (ms)").contains("HTTP Chunks Received");
        }
    }

    /**
     * Without any flag, as upstream 0.13: each valid record carries the 14 http_req_* metrics and the summary (JSON
     * and CSV) their statistics, but no trace_data and no timing table. One connection carries the requests in turn:
     * the first opened it, every later one reused it.
     */
    @Test
    void everyRecordAndTheSummaryCarryTheHttpMetrics() throws Exception {
        final int requests = 6;
        final int osl = 4;
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(10, 10))) {
            final Path dir = tmp.resolve("plain");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--request-count", String.valueOf(requests), "--concurrency", "1", "--isl", "16", "--osl",
                    String.valueOf(osl), "--tokenizer", "builtin", "--export-level", "raw", "--artifact-dir",
                    dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> lines = new java.util.ArrayList<>(Runs.jsonl(dir.resolve("profile_export.jsonl")));
            lines.sort(java.util.Comparator.comparingLong(l -> l.path("metadata").path("request_start_ns").asLong()));
            assertThat(lines).hasSize(requests);
            final java.util.Map<String, Long> bodies = new java.util.HashMap<>();
            for (final JsonNode raw : Runs.jsonl(dir.resolve("profile_export_raw.jsonl"))) {
                bodies.put(raw.path("metadata").path("x_request_id").asText(),
                        (long) Runs.JSON.writeValueAsBytes(raw.path("request")).length);
            }
            for (int i = 0; i < lines.size(); i++) {
                final JsonNode line = lines.get(i);
                final JsonNode m = line.path("metrics");
                assertThat(line.has("trace_data")).isFalse();
                assertThat(m.path("http_req_connection_reused").path("value").asInt()).as("request %d", i)
                        .isEqualTo(i == 0 ? 0 : 1);
                if (i > 0) {
                    assertThat(m.path("http_req_connecting").path("value").asDouble()).isZero();
                }
                assertThat(m.path("http_req_dns_lookup").path("value").asDouble()).isZero();
                // a token per event, the last with the stream's tail: as many reads at most (fewer when coalesced)
                assertThat(m.path("http_req_chunks_received").path("value").asInt()).isBetween(1, osl + 1);
                assertThat(m.path("http_req_chunks_sent").path("value").asInt()).isOne();
                assertThat(m.path("http_req_data_sent").path("unit").asText()).isEqualTo("KB");
                assertThat(Math.round(m.path("http_req_data_sent").path("value").asDouble() * 1024))
                        .as("the body sent").isEqualTo(bodies.get(line.path("metadata").path("x_request_id").asText()));
                assertThat(m.path("http_req_data_received").path("value").asDouble() * 1024)
                        .as("%d events of a few hundred bytes", osl).isBetween(100.0 * osl, 10_000.0);
                // the first byte carries the first token, 10 ms after the request
                assertThat(m.path("http_req_waiting").path("value").asDouble()).isGreaterThanOrEqualTo(8.0);
                final double sum = m.path("http_req_connection_overhead").path("value").asDouble()
                        + m.path("http_req_sending").path("value").asDouble()
                        + m.path("http_req_waiting").path("value").asDouble()
                        + m.path("http_req_receiving").path("value").asDouble();
                assertThat(m.path("http_req_total").path("value").asDouble())
                        .isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-6));
                // from the same write to the end of the stream, where the latency ends at its last content
                assertThat(m.path("http_req_duration").path("value").asDouble())
                        .isGreaterThanOrEqualTo(m.path("request_latency").path("value").asDouble() - 1e-6);
            }
            final JsonNode summary = Runs.json(dir.resolve("profile_export_aiperf.json"));
            final JsonNode reused = summary.path("http_req_connection_reused");
            assertThat(reused.path("unit").asText()).isEqualTo("ratio");
            assertThat(reused.path("count").asLong()).isEqualTo(requests);
            assertThat(reused.path("sum").asDouble()).isEqualTo(requests - 1);
            assertThat(summary.path("http_req_chunks_received").path("max").asDouble()).isBetween(1.0, osl + 1.0);
            assertThat(summary.path("http_req_waiting").path("unit").asText()).isEqualTo("ms");
            final String csv = java.nio.file.Files.readString(dir.resolve("profile_export_aiperf.csv"));
            assertThat(csv).contains("\r\nHTTP Blocked (ms),").contains("\r\nHTTP Chunks Received,")
                    .contains("\r\nHTTP Connection Reused (ratio),").contains("\r\nHTTP Data Received (KB),")
                    .contains("\r\nHTTP Duration (excl. conn) (ms),").contains("\r\nHTTP Total Time (ms),");
            assertThat(r.out()).doesNotContain("HTTP Trace Timing").doesNotContain("HTTP Blocked");
        }
    }
}
