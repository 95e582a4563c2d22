package io.aiperf.engine.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each tool's documented result shape, as small files the tests write, mapped into the catalogue with units. */
class ForeignResultsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static final String VLLM = """
            {"date": "20261201-101010", "backend": "vllm", "model_id": "m", "num_prompts": 100, "duration": 25.5,
             "completed": 98, "failed": 2, "total_input_tokens": 51200, "total_output_tokens": 12544,
             "request_throughput": 3.84, "request_goodput": null, "output_throughput": 491.9,
             "total_token_throughput": 2499.7,
             "mean_ttft_ms": 41.5, "median_ttft_ms": 40.1, "std_ttft_ms": 5.2, "p99_ttft_ms": 63.0,
             "mean_tpot_ms": 9.8, "median_tpot_ms": 9.7, "std_tpot_ms": 0.4, "p99_tpot_ms": 11.1,
             "mean_itl_ms": 9.9, "median_itl_ms": 9.5, "std_itl_ms": 2.0, "p99_itl_ms": 19.0, "p99.9_itl_ms": 30.0,
             "mean_e2el_ms": 1290.0, "median_e2el_ms": 1280.0, "std_e2el_ms": 40.0, "p99_e2el_ms": 1400.0}
            """;

    static final String GUIDELLM = """
            {"benchmarks": [{"type_": "generative_benchmark", "metrics": {
              "requests_per_second": {"successful": {"mean": 4.2}},
              "output_tokens_per_second": {"successful": {"mean": 530.0}},
              "tokens_per_second": {"successful": {"mean": 2600.0}},
              "request_latency": {"successful": {"mean": 1.25, "median": 1.2, "std_dev": 0.05, "min": 1.1, "max": 1.5,
                  "count": 95, "percentiles": {"p001": 1.1, "p01": 1.11, "p05": 1.15, "p10": 1.16, "p25": 1.18,
                  "p50": 1.2, "p75": 1.3, "p90": 1.35, "p95": 1.4, "p99": 1.48, "p999": 1.5}},
                "errored": {"count": 5}},
              "time_to_first_token_ms": {"successful": {"mean": 45.0, "median": 44.0, "percentiles": {"p99": 70.0}}},
              "inter_token_latency_ms": {"successful": {"mean": 9.0, "median": 8.9, "percentiles": {"p90": 9.8}}},
              "time_per_output_token_ms": {"successful": {"mean": 9.3}},
              "prompt_token_count": {"successful": {"mean": 512.0, "median": 512.0}},
              "output_token_count": {"successful": {"mean": 128.0, "median": 128.0}}}}]}
            """;

    static final String INFERENCE_PERF = """
            {"load_summary": {"count": 100},
             "successes": {"count": 97,
               "latency": {
                 "request_latency": {"mean": 1.3, "min": 1.0, "p10": 1.1, "median": 1.28, "p90": 1.5, "p99": 1.9, "max": 2.0},
                 "time_to_first_token": {"mean": 0.05, "median": 0.048, "p99": 0.09},
                 "time_per_output_token": {"mean": 0.01, "median": 0.0098},
                 "inter_token_latency": {"mean": 0.011, "p99.9": 0.05}},
               "throughput": {"requests_per_sec": 3.9, "output_tokens_per_sec": 500.0, "total_tokens_per_sec": 2500.0},
               "prompt_len": {"mean": 512.0}, "output_len": {"mean": 128.0}},
             "failures": {"count": 3}}
            """;

    private static ImportedRun one(final String json) throws Exception {
        final List<ImportedRun> runs = ForeignResults.read(JSON.readTree(json));
        assertThat(runs).hasSize(1);
        return runs.get(0);
    }

    @Test
    void vllmBenchServeMapsTpotToInterTokenLatencyAndItlToInterChunkLatency() throws Exception {
        final ImportedRun run = one(VLLM);
        assertThat(run.tool()).isEqualTo("vLLM bench serve");
        final JsonNode s = run.summary();
        assertThat(s.path("time_to_first_token").path("p50").asDouble()).isEqualTo(40.1);
        assertThat(s.path("time_to_first_token").path("p99").asDouble()).isEqualTo(63.0);
        assertThat(s.path("inter_token_latency").path("avg").asDouble()).isEqualTo(9.8);
        assertThat(s.path("inter_chunk_latency").path("p99").asDouble()).isEqualTo(19.0);
        assertThat(s.path("inter_chunk_latency").has("p99.9")).isFalse();
        assertThat(s.path("request_latency").path("std").asDouble()).isEqualTo(40.0);
        assertThat(s.path("request_count").path("avg").asDouble()).isEqualTo(98);
        assertThat(s.path("error_request_count").path("avg").asDouble()).isEqualTo(2);
        assertThat(s.has("goodput")).isFalse(); // null in the source: absent, never 0
        assertThat(run.missing()).contains("time_to_second_token", "output_token_throughput_per_user")
                .doesNotContain("time_to_first_token");
    }

    @Test
    void guidellmSecondsBecomeMillisecondsAndItsPercentileNamesAreMapped() throws Exception {
        final ImportedRun run = one(GUIDELLM);
        final JsonNode s = run.summary();
        assertThat(s.path("request_latency").path("avg").asDouble()).isCloseTo(1250.0, within(1e-9));
        assertThat(s.path("request_latency").path("p1").asDouble()).isCloseTo(1110.0, within(1e-9));
        assertThat(s.path("request_latency").path("p99").asDouble()).isCloseTo(1480.0, within(1e-9));
        assertThat(s.path("request_latency").path("count").asLong()).isEqualTo(95);
        assertThat(s.path("time_to_first_token").path("p99").asDouble()).isEqualTo(70.0);
        assertThat(s.path("inter_token_latency").path("p90").asDouble()).isEqualTo(9.8);
        assertThat(s.path("request_throughput").path("avg").asDouble()).isEqualTo(4.2);
        assertThat(s.path("error_request_count").path("avg").asDouble()).isEqualTo(5);
        assertThat(s.path("input_sequence_length").path("p50").asDouble()).isEqualTo(512.0);
        assertThat(run.missing()).contains("inter_chunk_latency");
    }

    @Test
    void inferencePerfSecondsBecomeMilliseconds() throws Exception {
        final ImportedRun run = one(INFERENCE_PERF);
        final JsonNode s = run.summary();
        assertThat(s.path("request_latency").path("p90").asDouble()).isCloseTo(1500.0, within(1e-9));
        assertThat(s.path("request_latency").path("p50").asDouble()).isCloseTo(1280.0, within(1e-9));
        assertThat(s.path("time_to_first_token").path("p99").asDouble()).isCloseTo(90.0, within(1e-9));
        assertThat(s.path("inter_token_latency").path("avg").asDouble()).isCloseTo(10.0, within(1e-9));
        assertThat(s.path("inter_chunk_latency").has("p99")).isFalse();
        assertThat(s.path("request_count").path("avg").asDouble()).isEqualTo(97);
        assertThat(s.path("error_request_count").path("avg").asDouble()).isEqualTo(3);
        assertThat(s.path("output_token_throughput").path("avg").asDouble()).isEqualTo(500.0);
    }

    @Test
    void ourOwnAndAiperfSummariesAreNotImported() throws Exception {
        assertThat(ForeignResults.read(JSON.readTree("{\"schema_version\": \"1.5\", \"time_to_first_token\": "
                + "{\"unit\": \"ms\", \"avg\": 1}}"))).isEmpty();
    }
}
