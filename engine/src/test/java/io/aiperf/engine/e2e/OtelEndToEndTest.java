package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream's --otel-url: the results pushed as OTLP/HTTP JSON to a loopback collector (src-docs/exports.md). */
class OtelEndToEndTest {
    @TempDir
    Path tmp;

    private record Received(String path, String contentType, JsonNode body) {
    }

    @Test
    void eachCellsResultsReachTheCollectorAsOtlpJson() throws Exception {
        final List<Received> received = Collections.synchronizedList(new ArrayList<>());
        final HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/", ex -> {
            received.add(new Received(ex.getRequestURI().getPath(), ex.getRequestHeaders().getFirst("Content-Type"),
                    new ObjectMapper().readTree(ex.getRequestBody().readAllBytes())));
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        collector.start();
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("run");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "8",
                    "--osl", "3", "--request-count", "4", "--concurrency", "1,2", "--tokenizer", "builtin",
                    "--otel-url", "127.0.0.1:" + collector.getAddress().getPort(), "--otel-resource-attributes",
                    "team=perf", "deployment.environment=ci", "--gen-ai-provider", "vllm",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(received).hasSize(2); // one push per cell of the sweep
            assertThat(r.err()).contains("OTel: pushed the results of 2 cell(s)");
            for (final Received push : received) {
                assertThat(push.path()).isEqualTo("/v1/metrics");
                assertThat(push.contentType()).startsWith("application/json");
                final JsonNode rm = push.body().path("resourceMetrics").path(0);
                assertThat(rm.path("resource").path("attributes").toString()).contains("service.name")
                        .contains("\"team\"").contains("\"perf\"").contains("deployment.environment");
                final JsonNode metrics = rm.path("scopeMetrics").path(0).path("metrics");
                JsonNode ttft = null;
                JsonNode count = null;
                for (final JsonNode m : metrics) {
                    if (m.path("name").asText().equals("aiperf.time_to_first_token")) {
                        ttft = m;
                    }
                    if (m.path("name").asText().equals("aiperf.timing.request_count")) {
                        count = m;
                    }
                }
                assertThat(ttft).isNotNull();
                assertThat(ttft.path("unit").asText()).isEqualTo("ms");
                final JsonNode p99 = findStat(ttft.path("gauge").path("dataPoints"), "p99");
                assertThat(p99.path("asDouble").asDouble()).isPositive();
                assertThat(p99.path("attributes").toString()).contains("gen_ai.provider.name").contains("vllm")
                        .contains("gen_ai.request.model").contains("aiperf.cell");
                assertThat(count).isNotNull();
                assertThat(count.path("sum").path("dataPoints").path(0).path("asInt").asText()).isEqualTo("4");
            }
            // Each push matches its cell's summary file.
            final JsonNode summary = Runs.json(dir.resolve("concurrency_1").resolve("profile_export_aiperf.json"));
            final Received first = received.stream().filter(p -> p.body().toString().contains("concurrency_1"))
                    .findFirst().orElseThrow();
            JsonNode ttft = null;
            for (final JsonNode m : first.body().path("resourceMetrics").path(0).path("scopeMetrics").path(0)
                    .path("metrics")) {
                if (m.path("name").asText().equals("aiperf.time_to_first_token")) {
                    ttft = m;
                }
            }
            assertThat(findStat(ttft.path("gauge").path("dataPoints"), "avg").path("asDouble").asDouble())
                    .isEqualTo(summary.path("time_to_first_token").path("avg").asDouble());
        } finally {
            collector.stop(0);
        }
    }

    @Test
    void aCollectorThatIsDownIsAWarningAndTheRunSucceeds() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "2",
                    "--tokenizer", "builtin", "--otel-url", "http://127.0.0.1:9/v1/metrics", "--stream", "timing",
                    "--artifact-dir", tmp.resolve("down").toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.err()).contains("OTel: results of . not pushed to http://127.0.0.1:9/v1/metrics");
        }
        final Runs.Result bad = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--stream", "metrics");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err().strip()).contains("--stream").contains("--otel-url").doesNotContain("\n");
    }

    private static JsonNode findStat(final JsonNode points, final String stat) {
        for (final JsonNode p : points) {
            if (p.path("attributes").toString().contains("\"" + stat + "\"")) {
                return p;
            }
        }
        throw new AssertionError("no " + stat + " point in " + points);
    }
}
