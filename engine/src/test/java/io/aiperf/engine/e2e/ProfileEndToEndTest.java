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

/** {@code aiperf profile} against the real mock server over loopback HTTP. */
class ProfileEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void seedQuickStartWritesAllExportsWithHundredRecords() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("quick");
            final Runs.Result r = Runs.aiperf("profile", "--model", "your-model", "--url", mock.url(),
                    "--endpoint-type", "chat", "--streaming", "--concurrency", "8", "--request-count", "100",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isZero();
            assertThat(Files.readAllLines(dir.resolve("profile_export.jsonl"))).hasSize(100);
            final JsonNode summary = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(summary.path("request_count").path("avg").asDouble()).isEqualTo(100.0);
            assertThat(summary.path("schema_version").asText()).isEqualTo("1.5");
            assertThat(summary.path("was_cancelled").asBoolean()).isFalse();
            assertThat(summary.path("error_summary").size()).isZero();
            assertThat(summary.path("client_health").path("client_cpu_seconds").asDouble()).isPositive();
            assertThat(summary.path("client_health").path("abandoned_requests").asInt()).isZero();
            assertThat(summary.path("time_to_first_token").path("p50").isNumber()).isTrue();
            assertThat(Files.readString(dir.resolve("profile_export_aiperf.csv"))).startsWith(
                    "Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\r\n");
            // Upstream 0.13's number shapes: two decimals everywhere, sums and counts too.
            assertThat(Files.readString(dir.resolve("profile_export_aiperf.csv")))
                    .contains("Input Sequence Length (tokens),550.00,550.00,550.00,55000.00,550.00,")
                    .contains("\r\nRequest Count,100.00\r\n");
            assertThat(Runs.json(dir.resolve("inputs.json")).path("data").size()).isEqualTo(100);
            assertThat(mock.controlState().inferenceRequests()).isEqualTo(100);
            final JsonNode first = Runs.jsonl(dir.resolve("profile_export.jsonl")).get(0);
            assertThat(first.path("metadata").path("benchmark_phase").asText()).isEqualTo("profiling");
            assertThat(first.path("metrics").path("input_sequence_length").path("value").asInt()).isEqualTo(550);
            assertThat(first.path("error").isNull()).isTrue();
        }
    }

    @Test
    void latencyMatchesTheMockModel() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(40, 10))) {
            final Path dir = tmp.resolve("latency");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--concurrency", "8", "--request-count", "160", "--warmup-request-count", "64", "--osl", "50",
                    "--isl", "128", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            // The tolerances grow with how late this machine's timers woke during the run (the client's own probe,
            // which the mock in the same process shares), never with the measurements under test: a uniform
            // error of 2 ms per token fails on a quiet machine, where they are 2 ms, 0.5 ms and 2%.
            final double late = s.path("client_health").path("wakeup_delay_p99_ms").asDouble();
            assertThat(s.path("time_to_first_token").path("p50").asDouble()).isBetween(40.0, 42.0 + 2 * late);
            // A first token delivered late shortens the remaining gaps on average: ITL = (latency - TTFT) / 49.
            final double lateFirst = Math.max(0, s.path("time_to_first_token").path("avg").asDouble() - 40.0);
            assertThat(s.path("inter_token_latency").path("avg").asDouble()).isBetween(10.0 - lateFirst / 49 - 1e-9,
                    10.5 + late);
            assertThat(s.path("request_latency").path("p50").asDouble()).isBetween(530.0 * 0.98,
                    530.0 * 1.02 + 50 * late);
            assertThat(s.path("output_sequence_length").path("avg").asDouble()).isEqualTo(50.0);
            assertThat(s.path("warmup_metrics").path("request_count").path("avg").asDouble()).isEqualTo(64.0);
        }
    }

    @Test
    void serverErrorsBecomeErrorRecordsAndTheRunGoesOn() throws Exception {
        final MockServerConfig cfg = MockServerConfig.fast().withFaults("/v1/chat/completions=status:500:3",
                "/v1/chat/completions=garbage:2", "/v1/chat/completions=truncate:2");
        try (MockServer mock = MockServer.start(cfg)) {
            final Path dir = tmp.resolve("errors");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--concurrency", "1", "--request-count", "20", "--osl", "8", "--isl", "32",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).as(s.path("error_summary").toString()).isEqualTo(13);
            assertThat(s.path("error_request_count").path("avg").asInt()).isEqualTo(7);
            final String errors = s.path("error_summary").toString();
            assertThat(errors).contains("\"code\":500").contains("InvalidInferenceResultError");
            final List<JsonNode> records = Runs.jsonl(dir.resolve("profile_export.jsonl"));
            assertThat(records).hasSize(20);
            assertThat(records.stream().filter(n -> !n.path("error").isNull()))
                    .allSatisfy(n -> assertThat(n.path("error").path("type").asText()).isNotEmpty())
                    .allSatisfy(n -> assertThat(n.path("error").has("message")).isTrue())
                    .hasSize(7);
        }
    }

    @Test
    void nonStreamingCompletionsAndEmbeddingsWork() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            for (final String type : List.of("completions", "embeddings", "chat")) {
                final Path dir = tmp.resolve(type);
                final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url() + "/v1", "--endpoint-type",
                        type, "--concurrency", "2", "--request-count", "10", "--isl", "64", "--osl", "12",
                        "--artifact-dir", dir.toString());
                assertThat(r.exitCode()).as(type).isZero();
                final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
                assertThat(s.path("request_count").path("avg").asInt()).as(type).isEqualTo(10);
                assertThat(s.has("time_to_first_token")).as("no TTFT without streaming").isFalse();
            }
        }
    }

    @Test
    void apiKeyIsSentButNeverWritten() throws Exception {
        final String key = "sk-test-SECRET-4242";
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withApiKey(key))) {
            final Path dir = tmp.resolve("auth");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--api-key", key,
                    "-H", "X-Custom:visible", "--concurrency", "2", "--request-count", "6", "--isl", "16",
                    "--osl", "4", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isZero();
            assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).path("request_count").path("avg").asInt())
                    .isEqualTo(6);
            assertThat(Runs.allText(dir)).doesNotContain(key).contains("<redacted>");
            assertThat(r.all()).doesNotContain(key);
        }
    }

    @Test
    void wrongApiKeyGivesUnauthorizedErrorRecords() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withApiKey("right"))) {
            final Path dir = tmp.resolve("unauth");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--api-key", "wrong",
                    "--request-count", "3", "--isl", "8", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isEqualTo(1); // no valid request: the cell failed, with its exports written
            assertThat(r.err()).contains("no valid request: all 3 failed; most frequent error: HTTP 401 Unauthorized (check the API key: --api-key or --api-key-env)");
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("error_summary").get(0).path("error_details").path("code").asInt()).isEqualTo(401);
            assertThat(s.path("error_summary").get(0).path("count").asInt()).isEqualTo(3);
            assertThat(s.has("request_count")).isFalse();
            assertThat(r.out()).contains("All requests failed");
        }
    }

    @Test
    void yamlConfigRunsWithCliOverrides() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path yaml = tmp.resolve("bench.yaml");
            Files.writeString(yaml, """
                    benchmark:
                      model: yaml-model
                      endpoint:
                        url: ${MOCK_URL:%s}
                        type: chat
                        streaming: true
                      dataset:
                        entries: 10
                        isl: 32
                        osl: 8
                      phases:
                        - name: warmup
                          concurrency: 2
                          requests: 4
                        - name: profiling
                          type: concurrency
                          concurrency: 4
                          requests: 40
                      artifacts:
                        dir: %s
                    """.formatted(mock.url(), tmp.resolve("yaml-out")));
            final Runs.Result r = Runs.aiperf("profile", "-f", yaml.toString(), "--request-count", "12");
            assertThat(r.exitCode()).isZero();
            final JsonNode s = Runs.json(tmp.resolve("yaml-out").resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(12);
            assertThat(s.path("warmup_metrics").path("request_count").path("avg").asInt()).isEqualTo(4);
            assertThat(s.path("input_config").path("models").path("items").get(0).path("name").asText())
                    .isEqualTo("yaml-model");
            assertThat(mock.controlState().inferenceRequests()).isEqualTo(16);
        }
    }

    @Test
    void durationBoundRateRunStopsOnTime() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            final Path dir = tmp.resolve("rate");
            final long start = System.nanoTime();
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--request-rate", "50", "--arrival-pattern", "constant", "--benchmark-duration", "1",
                    "--isl", "16", "--osl", "4", "--random-seed", "7", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            final JsonNode loop = s.path("client_health").path("open_loop").path("profiling");
            // The schedule made 50 arrivals due in the second; a stall on a busy machine may skip some of them, and
            // the run counts those as missed instead of sending them late.
            final int scheduled = loop.path("scheduled").asInt();
            assertThat(scheduled).isBetween(48, 51);
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(loop.path("sent").asInt());
            assertThat(loop.path("sent").asInt() + loop.path("missed_arrivals").asInt())
                    .isBetween(scheduled - 1, scheduled); // the last may fall due as the window closes
            assertThat((System.nanoTime() - start) / 1e9).isLessThan(20);
        }
    }

    @Test
    void goodputCountsRequestsMeetingEverySlo() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            final Path dir = tmp.resolve("goodput");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--concurrency", "2",
                    "--request-count", "20", "--isl", "16", "--osl", "8", "--artifact-dir", dir.toString(),
                    "--goodput", "time_to_first_token:1000 inter_token_latency:1000");
            assertThat(r.exitCode()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("good_request_count").path("avg").asInt()).isEqualTo(20);
            assertThat(s.path("goodput").path("avg").asDouble())
                    .isCloseTo(s.path("request_throughput").path("avg").asDouble(), org.assertj.core.data.Offset.offset(1e-6));
            final Path strict = tmp.resolve("goodput-strict");
            Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--request-count", "5", "--isl", "16",
                    "--osl", "8", "--artifact-dir", strict.toString(), "--goodput", "time_to_first_token:0.001");
            assertThat(Runs.json(strict.resolve("profile_export_aiperf.json")).path("good_request_count").path("avg").asInt())
                    .isZero();
        }
    }

    @Test
    void unboundedRunDefaultsToTenRequestsWithAWarning() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("default10");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--concurrency", "3",
                    "--isl", "8", "--osl", "2", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isZero();
            assertThat(r.err()).contains("warning: phase 'profiling' has no stop condition").contains("10 requests");
            assertThat(Files.readAllLines(dir.resolve("profile_export.jsonl"))).hasSize(10);
            // Wider loops get twice their concurrency, as upstream.
            final Path wide = tmp.resolve("default-wide");
            final Runs.Result w = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--concurrency", "8",
                    "--isl", "8", "--osl", "2", "--artifact-dir", wide.toString());
            assertThat(w.exitCode()).isZero();
            assertThat(w.err()).contains("defaulting to 16 requests");
            assertThat(Files.readAllLines(wide.resolve("profile_export.jsonl"))).hasSize(16);
        }
    }

    @Test
    void extraInputsHeadersAndServerTokenCounts() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("extra");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--request-count", "4",
                    "--isl", "40", "--osl", "6", "--extra-inputs", "ignore_eos:true", "--extra-inputs", "{\"temperature\": 0.5}",
                    "-H", "X-Team:perf", "--use-server-token-count", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isZero();
            final JsonNode payload = Runs.json(dir.resolve("inputs.json")).path("data").get(0).path("payloads").get(0);
            assertThat(payload.path("ignore_eos").asBoolean()).isTrue();
            assertThat(payload.path("temperature").asDouble()).isEqualTo(0.5);
            assertThat(payload.path("max_completion_tokens").asInt()).isEqualTo(6);
            assertThat(payload.path("stream_options").path("include_usage").asBoolean()).isTrue();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            // The mock reports prompt_tokens as the prompt's characters / 4: ISL is the server's count, not the 40 asked.
            final java.util.Map<String, Integer> charsOver4 = new java.util.HashMap<>();
            for (final JsonNode session : Runs.json(dir.resolve("inputs.json")).path("data")) {
                final JsonNode messages = session.path("payloads").get(0).path("messages");
                charsOver4.put(session.path("session_id").asText(),
                        Math.max(1, messages.get(messages.size() - 1).path("content").asText().length() / 4));
            }
            double serverIsl = 0;
            final java.util.List<JsonNode> records = Runs.jsonl(dir.resolve("profile_export.jsonl"));
            assertThat(records).hasSize(4);
            for (final JsonNode record : records) {
                final int expected = charsOver4.get(record.path("metadata").path("conversation_id").asText());
                assertThat(record.path("metrics").path("input_sequence_length").path("value").asInt()).isEqualTo(expected);
                serverIsl += expected;
            }
            assertThat(serverIsl / 4).isNotEqualTo(40.0);
            assertThat(s.path("input_sequence_length").path("avg").asDouble())
                    .isCloseTo(serverIsl / 4, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(s.path("output_sequence_length").path("avg").asDouble()).isEqualTo(6.0);
            assertThat(s.path("input_config").path("endpoint").path("headers").path("X-Team").asText()).isEqualTo("perf");
        }
    }

    @Test
    void configExpandPrintsTheEffectiveConfigWithoutSecrets() throws Exception {
        final Path yaml = tmp.resolve("expand.yaml");
        Files.writeString(yaml, "benchmark:\n  model: m\n  endpoint:\n    url: h:1\n    apiKey: sk-expand-SECRET\n"
                + "  phases: {concurrency: 2, requests: 5}\n");
        final Runs.Result r = Runs.aiperf("config", "expand", "-f", yaml.toString());
        assertThat(r.exitCode()).isZero();
        // entries: the request count, as upstream 0.13 sizes a synthetic dataset not sized on purpose
        assertThat(r.out()).contains("http://h:1").contains("timeout: 21600\n").contains("entries: 5")
                .contains("requests: 5").doesNotContain("sk-expand-SECRET").contains("<redacted>");
    }

    @Test
    void requestTimeoutBoundsTheWholeRequest() throws Exception {
        // TTFT 100 ms then 20 tokens 100 ms apart: every read is quick, the request is not.
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(100, 100))) {
            final Path dir = tmp.resolve("timeout");
            final long t0 = System.nanoTime();
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--concurrency", "2",
                    "--request-count", "4", "--isl", "8", "--osl", "20", "--request-timeout-seconds", "0.5",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isEqualTo(1); // every request timed out: no valid request
            // Each read comes 100 ms apart, so only a whole-request bound fires (the message below); the wall time
            // only guards against a hang (unbounded, the 4 requests would take 4.2 s).
            assertThat((System.nanoTime() - t0) / 1e9).isLessThan(60);
            final JsonNode summary = Runs.json(dir.resolve("profile_export_aiperf.json")).path("error_summary").get(0);
            assertThat(summary.path("error_details").path("type").asText()).isEqualTo("TimeoutError");
            assertThat(summary.path("error_details").path("message").asText()).contains("timed out after 0.5 seconds");
            assertThat(summary.path("count").asInt()).isEqualTo(4);
        }
    }

    @Test
    void mockErrorRateProducesServerErrorsAmongValidRecords() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withErrorRate(50))) {
            final Path dir = tmp.resolve("error-rate");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--concurrency", "4",
                    "--request-count", "200", "--isl", "8", "--osl", "2", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("error_request_count").path("avg").asInt()).isBetween(60, 140);
            assertThat(s.path("request_count").path("avg").asInt() + s.path("error_request_count").path("avg").asInt())
                    .isEqualTo(200);
            assertThat(s.path("request_error_rate").path("avg").asDouble()).isBetween(30.0, 70.0);
        }
    }
}
