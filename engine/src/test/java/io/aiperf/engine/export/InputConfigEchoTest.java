package io.aiperf.engine.export;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.redact.Redactor;
import java.util.List;
import org.junit.jupiter.api.Test;

class InputConfigEchoTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode echo(final String yaml, final CliOverlay cli) {
        final BenchmarkConfig c = ConfigLoader.fromYaml(yaml, cli);
        return InputConfigEcho.of(Redactor.of(c).config(c.given()), c);
    }

    @Test
    void echoesOnlyWhatWasGivenInUpstreamsShape() throws Exception {
        final ObjectNode e = echo("""
                random_seed: 7
                benchmark:
                  model: llama
                  endpoint:
                    url: http://127.0.0.1:9
                    streaming: true
                    api_key: sk-secret-value
                  dataset:
                    isl: 128
                  phases:
                    concurrency: 4
                    requests: 20
                """, new CliOverlay().set("endpoint.model_selection", "random", "--model-selection-strategy"));
        assertThat(e.path("models")).isEqualTo(JSON.readTree(
                "{\"strategy\": \"random\", \"items\": [{\"name\": \"llama\"}]}"));
        assertThat(e.path("endpoint").has("model_selection")).isFalse();
        // Defaults the binder filled in (timeout, type, url strategy, ...) are not part of the echo.
        assertThat(e.path("endpoint").has("timeout")).isFalse();
        assertThat(e.path("endpoint").has("type")).isFalse();
        assertThat(e.path("endpoint").path("api_key").asText()).doesNotContain("sk-secret");
        assertThat(e.path("datasets")).hasSize(1);
        final JsonNode ds = e.path("datasets").get(0);
        // upstream's command line: dataset `main`, its type, the entries --request-count implies, the seed, decimals
        assertThat(JSON.writeValueAsString(ds)).isEqualTo("{\"name\":\"main\",\"type\":\"synthetic\",\"entries\":20,"
                + "\"random_seed\":7,\"prompts\":{\"isl\":{\"mean\":128.0,\"stddev\":0.0}}}");
        assertThat(e.path("phases")).isEqualTo(JSON.readTree("""
                [{"name": "profiling", "kind": "profiling", "type": "concurrency", "requests": 20, "concurrency": 4}]"""));
        assertThat(e.has("random_seed")).isFalse();
        assertThat(e.path("artifacts")).isEqualTo(JSON.readTree("{\"auto_plot\": false, \"plot_required\": false}"));
        // upstream 0.13's service sections, saying what this engine did when not given
        assertThat(e.path("server_metrics")).isEqualTo(JSON.readTree(
                "{\"enabled\": true, \"urls\": [], \"formats\": [\"json\", \"csv\"]}"));
        assertThat(e.path("gpu_telemetry")).isEqualTo(JSON.readTree("{\"enabled\": false}"));
        assertThat(e.path("network_latency")).isEqualTo(JSON.readTree("{\"enabled\": false}"));
        for (final String off : List.of("otel", "mlflow", "wandb")) {
            assertThat(e.path(off).isObject()).as(off).isTrue();
            assertThat(e.path(off)).as(off).isEmpty();
        }
        final List<String> order = new java.util.ArrayList<>();
        e.fieldNames().forEachRemaining(order::add);
        assertThat(order).containsExactly("models", "endpoint", "datasets", "phases", "artifacts", "gpu_telemetry",
                "server_metrics", "network_latency", "otel", "mlflow", "wandb");
    }

    @Test
    void nullsAreDroppedAndNoSeedMeansNoKey() throws Exception {
        final ObjectNode e = echo("""
                benchmark:
                  models: [a, b]
                  endpoint:
                    url: http://127.0.0.1:9
                    headers: null
                """, new CliOverlay());
        assertThat(e.path("models").path("items")).hasSize(2);
        assertThat(e.path("models").path("items").get(1).path("name").asText()).isEqualTo("b");
        assertThat(e.path("endpoint").has("headers")).isFalse();
        assertThat(e.has("random_seed")).isFalse();
        // nothing given: upstream's command line still writes its synthetic dataset and profiling phase
        // (with the input length it draws, upstream's default 550, as upstream's command line says for a text endpoint)
        assertThat(JSON.writeValueAsString(e.path("datasets"))).isEqualTo(
                "[{\"name\":\"main\",\"type\":\"synthetic\",\"prompts\":{\"isl\":{\"mean\":550.0}}}]");
        // (bounded by the 10 requests this engine sends then, as upstream's command line bounds it)
        assertThat(e.path("phases")).isEqualTo(JSON.readTree(
                "[{\"name\": \"profiling\", \"kind\": \"profiling\", \"type\": \"concurrency\", \"requests\": 10}]"));
    }

    @Test
    void gpuTelemetryAndServerMetricsGivenMoveBesideTheEndpointInUpstreamsForm() throws Exception {
        final ObjectNode e = echo("""
                benchmark:
                  model: m
                  endpoint:
                    url: http://127.0.0.1:9
                    gpu_telemetry: [http://gpu:9400/metrics]
                    server_metrics: false
                """, new CliOverlay());
        assertThat(e.path("endpoint").has("gpu_telemetry")).isFalse();
        assertThat(e.path("endpoint").has("server_metrics")).isFalse();
        assertThat(e.path("gpu_telemetry")).isEqualTo(JSON.readTree(
                "{\"enabled\": true, \"urls\": [\"http://gpu:9400/metrics\"]}"));
        assertThat(e.path("server_metrics")).isEqualTo(JSON.readTree("{\"enabled\": false}"));
        final ObjectNode mapping = echo("""
                benchmark:
                  model: m
                  gpuTelemetry: {enabled: true}
                  serverMetrics: {urls: [http://127.0.0.1:9/metrics], formats: [json]}
                """, new CliOverlay());
        assertThat(mapping.path("gpu_telemetry")).isEqualTo(JSON.readTree("{\"enabled\": true}"));
        assertThat(mapping.path("server_metrics")).isEqualTo(JSON.readTree(
                "{\"urls\": [\"http://127.0.0.1:9/metrics\"], \"formats\": [\"json\"], \"enabled\": true}"));
    }

    private static JsonNode phase(final String phases) {
        final ObjectNode e = echo("benchmark:\n  model: m\n  endpoint: {url: 'http://127.0.0.1:9'}\n  phases: " + phases
                + "\n", new CliOverlay());
        return e.path("phases").get(e.path("phases").size() - 1);
    }

    @Test
    void eachPhaseSaysItsKindAndItsTypeAsUpstreamNamesTheLoadModes() throws Exception {
        assertThat(phase("{concurrency: 2, requests: 8}").path("type").asText()).isEqualTo("concurrency");
        assertThat(phase("{rate: 5, requests: 8}")).isEqualTo(JSON.readTree("""
                {"name": "profiling", "kind": "profiling", "type": "poisson", "requests": 8, "rate": 5.0}"""));
        assertThat(phase("{type: constant, rate: 5, requests: 8}").path("type").asText()).isEqualTo("constant");
        assertThat(phase("{type: gamma, rate: 5, smoothness: 2, requests: 8}").path("type").asText())
                .isEqualTo("gamma");
        // a duration-bounded profiling phase: upstream's command line writes the grace period it runs with
        assertThat(phase("{concurrency: 2, duration: 5}")).isEqualTo(JSON.readTree("""
                {"name": "profiling", "kind": "profiling", "type": "concurrency", "duration": 5.0, "concurrency": 2,
                 "grace_period": 30.0}"""));
        final ObjectNode warm = echo("""
                benchmark:
                  model: m
                  endpoint: {url: 'http://127.0.0.1:9'}
                  phases:
                    - {name: warmup, kind: warmup, requests: 2, concurrency: 2}
                    - {name: profiling, concurrency: 2, requests: 4}
                """, new CliOverlay());
        assertThat(warm.path("phases").get(0)).isEqualTo(JSON.readTree("""
                {"name": "warmup", "kind": "warmup", "type": "concurrency", "exclude_from_results": true,
                 "requests": 2, "concurrency": 2}"""));
        // the dataset's entries follow the profiling phase's count, not the warmup's
        assertThat(warm.path("datasets").get(0).path("entries").asInt()).isEqualTo(4);
        final List<String> keys = new java.util.ArrayList<>();
        warm.path("phases").get(1).fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("name", "kind", "type", "requests", "concurrency");
    }

    @Test
    void aFileDatasetIsTypedFileAndAFixedScheduleSaysSo(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path tmp)
            throws Exception {
        final java.nio.file.Path trace = tmp.resolve("trace.jsonl");
        java.nio.file.Files.writeString(trace, """
                {"timestamp": 0, "input_length": 20, "output_length": 4, "hash_ids": [1]}
                {"timestamp": 50, "input_length": 20, "output_length": 4, "hash_ids": [2]}
                """);
        final ObjectNode e = echo("""
                benchmark:
                  model: m
                  endpoint: {url: 'http://127.0.0.1:9'}
                  phases: {type: fixed_schedule}
                  dataset: {path: '%s', format: mooncake_trace}
                """.formatted(trace.toString().replace("'", "''")), new CliOverlay());
        final JsonNode ds = e.path("datasets").get(0);
        assertThat(ds.path("name").asText()).isEqualTo("main");
        assertThat(ds.path("type").asText()).isEqualTo("file");
        assertThat(ds.has("entries")).isFalse();
        assertThat(e.path("phases").get(0).path("type").asText()).isEqualTo("fixed_schedule");
    }

    @Test
    void thePlotSwitchesAreAlwaysSaidAndFollowWhatWasAsked() {
        final ObjectNode e = echo("""
                benchmark:
                  model: m
                  endpoint: {url: 'http://127.0.0.1:9'}
                  artifacts: {dir: out, auto_plot: true}
                """, new CliOverlay());
        assertThat(e.path("artifacts").path("dir").asText()).isEqualTo("out");
        assertThat(e.path("artifacts").path("auto_plot").asBoolean()).isTrue();
        assertThat(e.path("artifacts").path("plot_required").isBoolean()).isTrue();
        assertThat(e.path("artifacts").path("plot_required").asBoolean()).isFalse();
    }

    @Test
    void theEndpointTypeIsSpelledAsUpstreamSpellsItAndATurnMeanHasItsDeviation() throws Exception {
        final ObjectNode rankings = echo("""
                benchmark:
                  model: m
                  endpoint: {url: 'http://127.0.0.1:9', type: nim-rankings}
                """, new CliOverlay());
        assertThat(rankings.path("endpoint").path("type").asText()).isEqualTo("nim_rankings");
        final ObjectNode e = echo("""
                benchmark:
                  model: m
                  endpoint: {url: 'http://127.0.0.1:9'}
                  dataset: {turns: {mean: 3}, osl: 8}
                """, new CliOverlay());
        final JsonNode ds = e.path("datasets").get(0);
        assertThat(JSON.writeValueAsString(ds.path("turns"))).startsWith("{\"mean\":3.0,").contains("\"stddev\":0.0");
        final List<String> prompts = new java.util.ArrayList<>();
        ds.path("prompts").fieldNames().forEachRemaining(prompts::add);
        assertThat(prompts).as("upstream's order, the input length given or not").startsWith("isl", "osl");
        assertThat(ds.path("prompts").path("isl").path("mean").asDouble()).isEqualTo(550.0);
    }
}
