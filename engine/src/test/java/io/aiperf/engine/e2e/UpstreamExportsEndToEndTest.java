package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The export keys upstream AIPerf writes and readers of its files look for: the usage totals and discrepancy count,
 * {@code runtime_submission_invalid_reasons}, upstream's headers and units, and {@code outputs.json}.
 */
class UpstreamExportsEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void usageTotalsDiscrepanciesHeadersAndOutputsJson() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("run");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "6",
                    "--warmup-request-count", "2", "--isl", "40", "--osl", "8", "--tokenizer", "builtin",
                    "--export-outputs-json", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            final List<JsonNode> records = Runs.jsonl(dir.resolve("profile_export.jsonl"));
            assertThat(records).hasSize(6);
            // totals are the sums of the records' usage values
            for (final String usage : List.of("prompt", "completion", "total")) {
                final long sum = records.stream().mapToLong(l -> l.path("metrics").path("usage_" + usage + "_tokens")
                        .path("value").asLong()).sum();
                assertThat(sum).as(usage).isPositive();
                assertThat(s.path("total_usage_" + usage + "_tokens").path("avg").asLong()).as(usage).isEqualTo(sum);
                assertThat(s.path("total_usage_" + usage + "_tokens").path("unit").asText()).isEqualTo("tokens");
            }
            // requests whose server prompt count is off the client's by more than 10%
            final long off = records.stream().filter(l -> l.path("metrics").path("usage_prompt_tokens_diff_pct")
                    .path("value").asDouble() > 10.0).count();
            assertThat(s.path("usage_discrepancy_count").path("avg").asLong()).isEqualTo(off);
            assertThat(s.path("runtime_submission_invalid_reasons").isArray()).isTrue();
            assertThat(s.path("runtime_submission_invalid_reasons")).isEmpty();
            assertThat(s.path("e2e_output_token_throughput").path("unit").asText()).isEqualTo("tokens/sec/user");
            // upstream 0.13's GPU telemetry block and CSV section, empty without GPU telemetry
            assertThat(s.path("telemetry_data").path("endpoints").isObject()).isTrue();
            assertThat(s.path("telemetry_data").path("endpoints")).isEmpty();
            assertThat(s.path("telemetry_data").path("summary").path("endpoints_configured")).isEmpty();
            final String csv = Files.readString(dir.resolve("profile_export_aiperf.csv"));
            assertThat(csv).endsWith("\r\n\r\n\r\nEndpoint,GPU_Index,GPU_Name,GPU_UUID,Platform,Metric,avg,min,max,sum,"
                    + "p1,p5,p10,p25,p50,p75,p90,p95,p99,std\r\n");
            assertThat(csv).contains("E2E Output Token Throughput (tokens/sec/user),", "Usage Prompt Diff % (%),", "Usage Completion Diff % (%),");
            // outputs.json: profiling answers in data, the warmup's apart, sorted by session and turn
            final JsonNode outputs = Runs.json(dir.resolve("outputs.json"));
            assertThat(outputs.path("schema_version").asText()).isEqualTo("1.1");
            assertThat(outputs.path("data")).hasSize(6);
            assertThat(outputs.path("warmup")).hasSize(2);
            final JsonNode first = outputs.path("data").get(0);
            assertThat(first.path("benchmark_phase").asText()).isEqualTo("profiling");
            assertThat(first.path("response_text").asText()).isNotBlank();
            assertThat(first.path("request_end_ns").asLong()).isGreaterThan(first.path("request_start_ns").asLong());
            assertThat(first.path("metrics").path("input_sequence_length").asInt()).isEqualTo(40);
            final List<String> ids = records.stream().map(l -> l.path("metadata").path("x_request_id").asText()).toList();
            outputs.path("data").forEach(o -> assertThat(ids).contains(o.path("x_request_id").asText()));
            for (int i = 1; i < outputs.path("data").size(); i++) {
                assertThat(outputs.path("data").get(i).path("session_num").asInt())
                        .isGreaterThanOrEqualTo(outputs.path("data").get(i - 1).path("session_num").asInt());
            }
        }
    }

    @Test
    void creditToStartAndEffectiveLatencyComeFromEveryRecordsStamps() throws Exception {
        // a third of the answers fail: upstream 0.13 derives both from every record's stamps, failed ones too
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withErrorRate(30))) {
            final Path dir = tmp.resolve("queue");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "16",
                    "--concurrency", "3", "--streaming", "--isl", "16", "--osl", "4", "--tokenizer", "builtin",
                    "--random-seed", "5", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            final List<JsonNode> records = Runs.jsonl(dir.resolve("profile_export.jsonl"));
            assertThat(records).hasSize(16);
            assertThat(records).anyMatch(l -> !l.path("error").isNull());
            final double[] toStart = records.stream().mapToDouble(l -> ms(l, "request_start_ns")).toArray();
            final double[] toEnd = records.stream().mapToDouble(l -> ms(l, "request_end_ns")).toArray();
            for (final Object[] metric : new Object[][] {{"credit_to_start_latency", toStart},
                    {"effective_latency", toEnd}}) {
                final JsonNode m = s.path((String) metric[0]);
                final java.util.DoubleSummaryStatistics stats = java.util.Arrays.stream((double[]) metric[1])
                        .summaryStatistics();
                assertThat(m.path("unit").asText()).isEqualTo("ms");
                // the stamps are written in whole nanoseconds: a microsecond covers their rounding
                assertThat(m.path("avg").asDouble()).as((String) metric[0])
                        .isCloseTo(stats.getAverage(), org.assertj.core.data.Offset.offset(1e-3));
                assertThat(m.path("max").asDouble()).isCloseTo(stats.getMax(), org.assertj.core.data.Offset.offset(1e-3));
            }
            assertThat(s.path("effective_latency").path("min").asDouble())
                    .isGreaterThanOrEqualTo(s.path("credit_to_start_latency").path("min").asDouble());
            final String csv = Files.readString(dir.resolve("profile_export_aiperf.csv"));
            assertThat(csv).contains("Credit-to-Start Latency (ms),", "Effective Latency (CO-aware) (ms),");
        }
    }

    /** From the record's credit to one of its stamps, in ms. */
    private static double ms(final JsonNode line, final String stamp) {
        final JsonNode meta = line.path("metadata");
        return Math.max(0, meta.path(stamp).asLong() - meta.path("credit_issued_ns").asLong()) / 1e6;
    }
}
