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
 * The shapes of upstream AIPerf's bundled config templates (minimal, goodput_slo, warmup_profiling,
 * multi_turn_conversation, trace_replay, ramping, request_cancellation, time_based_soak), written here with the same
 * keys and nesting and smaller numbers so each runs in seconds: each passes {@code config validate} and runs a short
 * {@code profile} against the mock.
 */
class UpstreamTemplatesEndToEndTest {
    @TempDir
    Path tmp;

    /** Root-level model and dataset, phases as one flat mapping. */
    private static final String MINIMAL = """
            model: demo-model
            benchmark:
              endpoint:
                url: {URL}
              phases:
                type: concurrency
                concurrency: 4
                requests: 12
            dataset:
              type: synthetic
              entries: 20
              prompts:
                isl: 32
                osl: 8
            """;

    /** A list of named phases with kinds, SLOs, artifacts' summary/records/sliceDuration. */
    private static final String GOODPUT_SLO = """
            schemaVersion: "2.0"
            randomSeed: 42
            benchmark:
              model: demo-model
              endpoint:
                url: {URL}
                path: /v1/chat/completions
                type: chat
                streaming: true
                timeout: 120.0
              dataset:
                type: synthetic
                entries: 50
                prompts:
                  isl: {mean: 32, stddev: 4}
                  osl: {mean: 8, stddev: 2}
              phases:
                - name: warmup
                  kind: warmup
                  type: concurrency
                  requests: 4
                  concurrency: 2
                - name: profiling
                  kind: profiling
                  type: poisson
                  duration: 1
                  rate: 20.0
                  concurrency: 8
                  gracePeriod: 5
              slos:
                request_latency: 5000
                time_to_first_token: 500
                inter_token_latency: 50
                output_token_throughput_per_user: 1.0
              artifacts:
                dir: {DIR}
                summary: [json]
                records: [jsonl]
                sliceDuration: 1
            """;

    /** warmup:/profiling: inside the body, isl/osl on the dataset, a gamma phase with rateRamp and duration strings. */
    private static final String WARMUP_PROFILING = """
            schemaVersion: "2.0"
            randomSeed: 42
            benchmark:
              model: demo-model
              endpoint:
                url: {URL}/v1/chat/completions
                type: chat
                streaming: true
                timeout: 600.0
              dataset:
                type: synthetic
                entries: 50
                isl: {mean: 32, stddev: 4}
                osl: {mean: 8, stddev: 2}
              warmup:
                type: concurrency
                requests: 4
                concurrency: 2
              profiling:
                type: gamma
                duration: 2
                rate: 20.0
                concurrency: 8
                smoothness: 1.5
                rateRamp: 1s
                gracePeriod: 5s
              artifacts:
                dir: {DIR}
                summary: [json]
                records: [jsonl]
                sliceDuration: 1s
            """;

    /** connectionReuse on the endpoint, records [jsonl, csv], root-level dataset, warmup and profiling. */
    private static final String MULTI_TURN = """
            randomSeed: 42
            model: demo-model
            benchmark:
              endpoint:
                url: {URL}/v1/chat/completions
                type: chat
                streaming: true
                timeout: 120.0
                connectionReuse: sticky-user-sessions
              artifacts:
                dir: {DIR}
                summary: [json]
                records: [jsonl, csv]
            dataset:
              type: synthetic
              entries: 20
              prompts:
                isl: {mean: 32, stddev: 4}
                osl: {mean: 8, stddev: 2}
              turns: {mean: 3, stddev: 1}
              turnDelay: {mean: 5, stddev: 1}
              turnDelayRatio: 1.0
            warmup:
              type: concurrency
              sessions: 2
              concurrency: 2
            profiling:
              type: concurrency
              sessions: 6
              concurrency: 3
              duration: 30
              gracePeriod: 10
            """;

    /** A fixed schedule over a mooncake file, with synthesis and a root-level serverMetrics section. */
    private static final String TRACE_REPLAY = """
            randomSeed: 42
            model: demo-model
            benchmark:
              endpoint:
                url: {URL}/v1/chat/completions
                type: chat
                streaming: true
                timeout: 300.0
              phases:
                type: fixed_schedule
                autoOffset: true
                concurrency: 20
                duration: 30
                gracePeriod: 10s
              artifacts:
                dir: {DIR}
                summary: [json]
                records: [jsonl, csv]
                sliceDuration: 1
            dataset:
              type: file
              path: {TRACE}
              format: mooncake_trace
              blockSize: 16
              sampling: sequential
              synthesis:
                speedupRatio: 2.0
                prefixLenMultiplier: 1.0
                promptLenMultiplier: 1.0
                maxIsl: 100
                maxOsl: 6
            serverMetrics:
              enabled: true
              urls:
                - {URL}/metrics
              formats: [json, csv, parquet]
            """;

    /** Ramps on both phases; the profiling phase's prefillRamp has no prefill concurrency to ramp. */
    private static final String RAMPING = """
            schemaVersion: "2.0"
            randomSeed: 42
            benchmark:
              model: demo-model
              endpoint:
                url: {URL}/v1/chat/completions
                type: chat
                streaming: true
                timeout: 60.0
              dataset:
                type: synthetic
                entries: 40
                isl: {mean: 32, stddev: 4}
                osl: {mean: 8, stddev: 2}
              phases:
                - name: warmup
                  type: concurrency
                  excludeFromResults: true
                  requests: 6
                  concurrency: 3
                  concurrencyRamp: 0.2s
                - name: profiling
                  type: poisson
                  duration: 1
                  rate: 30.0
                  concurrency: 4
                  concurrencyRamp: 0.5s
                  rateRamp: 0.5s
                  prefillRamp: 0.5s
                  gracePeriod: 10s
              artifacts:
                dir: {DIR}
                summary: [json]
                records: [jsonl]
                sliceDuration: 1s
            """;

    /** Phases named warmup and profiling without kind, a per-phase cancellation, requests and duration together. */
    private static final String REQUEST_CANCELLATION = """
            schemaVersion: "2.0"
            randomSeed: 42
            benchmark:
              model: demo-model
              endpoint:
                url: {URL}/v1/chat/completions
                type: chat
                streaming: true
                timeout: 60.0
              dataset:
                type: synthetic
                entries: 40
                prompts:
                  isl: {mean: 32, stddev: 4}
                  osl: {mean: 40, stddev: 2}
              phases:
                - name: warmup
                  type: concurrency
                  excludeFromResults: true
                  requests: 4
                  concurrency: 2
                - name: profiling
                  type: poisson
                  requests: 20
                  concurrency: 4
                  rate: 40.0
                  cancellation:
                    rate: 50.0
                    delay: 0.05
                  duration: 60
                  gracePeriod: 30
              artifacts:
                dir: {DIR}
                summary: [json]
                records: [jsonl]
              serverMetrics:
                enabled: true
                urls:
                  - {URL}/metrics
                formats: [json, csv]
            """;

    /** warmup:/profiling: bounded by duration only, serverMetrics and gpuTelemetry as {enabled: true} mappings. */
    private static final String TIME_BASED_SOAK = """
            schemaVersion: "2.0"
            randomSeed: 42
            benchmark:
              model: demo-model
              endpoint:
                url: {URL}/v1/chat/completions
                type: chat
                streaming: true
                timeout: 60.0
              dataset:
                type: synthetic
                entries: 20
                isl: {mean: 32, stddev: 4}
                osl: {mean: 8, stddev: 2}
              warmup:
                type: concurrency
                duration: 0.5s
                concurrency: 2
              profiling:
                type: concurrency
                duration: 1s
                concurrency: 3
                gracePeriod: 10s
              artifacts:
                dir: {DIR}
                summary: [json]
                records: [jsonl]
                sliceDuration: 1s
              serverMetrics:
                enabled: true
                urls:
                  - {URL}/metrics
                formats: [json, csv]
              gpuTelemetry:
                enabled: true
            """;

    private Path write(final String name, final String template, final MockServer mock) throws Exception {
        final Path trace = Files.writeString(tmp.resolve("production_trace.jsonl"), """
                {"timestamp": 0, "input_length": 40, "output_length": 12}
                {"timestamp": 100, "input_length": 30, "output_length": 4}
                {"timestamp": 120, "input_length": 60, "output_length": 20, "hash_ids": [1, 2, 3]}
                {"timestamp": 160, "input_length": 900, "output_length": 4}
                """);
        final String text = template.replace("{URL}", mock.url()).replace("{DIR}", tmp.resolve("art-" + name).toString())
                .replace("{TRACE}", trace.toString());
        return Files.writeString(tmp.resolve(name + ".yaml"), text);
    }

    private JsonNode validateAndRun(final String name, final String template) throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path yaml = write(name, template, mock);
            final Runs.Result v = Runs.aiperf("config", "validate", "-f", yaml.toString());
            assertThat(v.exitCode()).as(name + ": " + v.err()).isZero();
            assertThat(v.out()).contains(": valid (");
            final Path dir = tmp.resolve("art-" + name);
            final Runs.Result r = Runs.aiperf("profile", "-f", yaml.toString(), "--tokenizer", "builtin",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(name + ": " + r.err()).isZero();
            assertThat(dir.resolve("profile_export.jsonl")).exists();
            return Runs.json(dir.resolve("profile_export_aiperf.json"));
        }
    }

    @Test
    void minimal() throws Exception {
        final JsonNode s = validateAndRun("minimal", MINIMAL);
        assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(12);
    }

    @Test
    void goodputSlo() throws Exception {
        final JsonNode s = validateAndRun("goodput_slo", GOODPUT_SLO);
        assertThat(s.path("request_count").path("avg").asInt()).isPositive();
        assertThat(s.has("goodput")).as("the template's SLOs give a goodput").isTrue();
    }

    @Test
    void warmupProfiling() throws Exception {
        final JsonNode s = validateAndRun("warmup_profiling", WARMUP_PROFILING);
        assertThat(s.path("request_count").path("avg").asInt()).isPositive();
    }

    @Test
    void multiTurnConversation() throws Exception {
        final JsonNode s = validateAndRun("multi_turn_conversation", MULTI_TURN);
        // six sessions of one to five turns each, every turn a request
        assertThat(s.path("request_count").path("avg").asInt()).isGreaterThanOrEqualTo(6);
        assertThat(s.path("input_config").path("endpoint").path("connection_reuse").asText(""))
                .isIn("sticky-user-sessions", "");
    }

    @Test
    void traceReplay() throws Exception {
        final JsonNode s = validateAndRun("trace_replay", TRACE_REPLAY);
        // maxIsl 100 drops the 900-token row; maxOsl 6 caps the output lengths
        assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(3);
        assertThat(s.path("output_sequence_length").path("max").asDouble()).isLessThanOrEqualTo(6);
        final Path records = tmp.resolve("art-trace_replay").resolve("profile_export.jsonl");
        final java.util.List<Long> credits = Runs.jsonl(records).stream()
                .map(l -> l.path("metadata").path("credit_issued_ns").asLong()).sorted().toList();
        // speedupRatio 2 halves the gaps: the rows at 0 and 100 ms replay 50 ms apart
        assertThat((credits.get(1) - credits.get(0)) / 1e6).isCloseTo(50.0, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void ramping() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path yaml = write("ramping", RAMPING, mock);
            final Runs.Result v = Runs.aiperf("config", "validate", "-f", yaml.toString());
            assertThat(v.exitCode()).as(v.err()).isZero();
            // upstream ramps only a prefill cap that is set: the ramp alone is accepted and said to do nothing
            assertThat(v.err()).contains("benchmark.phases.profiling.prefill_concurrency_ramp_duration has no effect "
                    + "without a prefill concurrency");
            final Path dir = tmp.resolve("art-ramping");
            // shortened by flags: a smaller warmup, which stays closed-loop though the profiling phase has a rate
            final Runs.Result r = Runs.aiperf("profile", "-f", yaml.toString(), "--tokenizer", "builtin",
                    "--warmup-request-count", "4", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isPositive();
            final JsonNode phases = s.path("input_config").path("phases");
            assertThat(phases.get(0).path("type").asText()).isEqualTo("concurrency");
            assertThat(phases.get(0).has("rate")).isFalse();
            assertThat(phases.get(0).path("requests").asInt()).isEqualTo(4);
            assertThat(phases.get(1).path("concurrency_ramp_duration").asText()).isEqualTo("0.5s");
        }
    }

    @Test
    void requestCancellation() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(200, 5))) {
            final Path yaml = write("request_cancellation", REQUEST_CANCELLATION, mock);
            assertThat(Runs.aiperf("config", "validate", "-f", yaml.toString()).exitCode()).isZero();
            final Path dir = tmp.resolve("art-request_cancellation");
            final Runs.Result r = Runs.aiperf("profile", "-f", yaml.toString(), "--tokenizer", "builtin",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> lines = Runs.jsonl(dir.resolve("profile_export.jsonl"));
            assertThat(lines).hasSize(20);
            // replies take over 200 ms; the profiling phase's own cancellation cuts about half 50 ms after sending
            final List<JsonNode> cancelled = lines.stream()
                    .filter(l -> l.path("metadata").path("was_cancelled").asBoolean()).toList();
            assertThat(cancelled).isNotEmpty().hasSizeLessThan(20);
            assertThat(cancelled).allSatisfy(c -> assertThat(c.path("metadata").path("cancellation_time_ns").asLong()
                    - c.path("metadata").path("request_start_ns").asLong()).isGreaterThanOrEqualTo(50_000_000L));
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("warmup_metrics").path("request_count").path("avg").asInt()).isEqualTo(4);
            assertThat(s.path("warmup_metrics").path("error_request_count").path("avg").asInt(0))
                    .as("the warmup phase has no cancellation of its own").isZero();
            assertThat(dir.resolve("server_metrics_export.json")).exists();
        }
    }

    @Test
    void timeBasedSoak() throws Exception {
        final JsonNode s = validateAndRun("time_based_soak", TIME_BASED_SOAK);
        assertThat(s.path("request_count").path("avg").asInt()).isPositive();
        // {enabled: true} without URLs: DCGM's default ports on this host, as upstream's default
        assertThat(s.path("input_config").path("gpu_telemetry").path("enabled").asBoolean()).isTrue();
    }

    @Test
    void aKeyAtTheTopAndUnderBenchmarkIsOneLine() throws Exception {
        final Path yaml = Files.writeString(tmp.resolve("both.yaml"), """
                model: a
                benchmark:
                  model: b
                """);
        final Runs.Result r = Runs.aiperf("config", "validate", "-f", yaml.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err().strip()).isEqualTo("error: invalid configuration: model: given both at the top level and "
                + "under benchmark; keep one");
    }
}
