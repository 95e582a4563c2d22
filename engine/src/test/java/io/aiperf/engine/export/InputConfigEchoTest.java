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
        return InputConfigEcho.of(Redactor.of(c).config(c.given()), c.randomSeed());
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
        assertThat(ds.path("name").asText()).isEqualTo("default");
        assertThat(ds.path("prompts").path("isl").path("mean").asInt()).isEqualTo(128);
        assertThat(ds.has("entries")).isFalse();
        assertThat(e.path("phases").get(0).path("concurrency").asInt()).isEqualTo(4);
        assertThat(e.path("phases").get(0).has("grace_period")).isFalse();
        assertThat(e.path("random_seed").asLong()).isEqualTo(7);
        assertThat(e.has("artifacts")).isFalse();
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
        assertThat(order).startsWith("models", "endpoint", "datasets").endsWith("random_seed");
    }

    @Test
    void nullsAreDroppedAndNoSeedMeansNoKey() {
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
        assertThat(e.has("datasets")).isFalse();
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
}
