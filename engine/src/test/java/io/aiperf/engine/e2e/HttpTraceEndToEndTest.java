package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream's --export-http-trace and --show-trace-timing against the real mock (src-docs/exports.md, "HTTP trace"). */
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
                assertThat(t.path("waiting_ns").asLong()).isEqualTo(first - sendStart);
                assertThat(t.path("receiving_ns").asLong()).isEqualTo(last - first);
                assertThat(t.path("response_bytes").asLong()).isPositive();
                assertThat(line.path("metrics").path("http_req_waiting").path("unit").asText()).isEqualTo("ms");
                assertThat(line.path("metrics").path("http_req_duration").path("value").asDouble() * 1e6)
                        .isCloseTo((double) (last - sendStart), org.assertj.core.data.Offset.offset(1.0));
                if (t.has("connection_reused_ns")) {
                    reused++;
                    assertThat(t.has("tcp_connect_start_ns")).isFalse();
                    assertThat(line.path("metrics").path("http_req_connection_reused").path("value").asInt()).isOne();
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
                }
            }
            assertThat(reused).as("two connections carry 16 requests").isGreaterThanOrEqualTo(14);
            assertThat(failed).isPositive().isLessThan(16);
            assertThat(r.out()).contains("AIPerf (Java) | HTTP Trace Timing").contains("HTTP Waiting (TTFB) (ms)")
                    .contains("HTTP Receiving (ms)").contains("HTTP Connection Reused");
        }
    }

    @Test
    void withoutTheFlagTheRecordsHaveNoTrace() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("plain");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "3",
                    "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            for (final JsonNode line : Runs.jsonl(dir.resolve("profile_export.jsonl"))) {
                assertThat(line.has("trace_data")).isFalse();
                assertThat(line.path("metrics").has("http_req_waiting")).isFalse();
            }
            assertThat(r.out()).doesNotContain("HTTP Trace Timing");
        }
    }
}
