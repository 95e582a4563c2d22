package io.aiperf.engine.telemetry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.ArtifactsConfig;
import io.aiperf.engine.summary.SummaryCodec;
import java.util.List;
import java.util.Map;

/**
 * A cell's results as an OTLP/HTTP JSON metrics request ({@code ExportMetricsServiceRequest}, POST /v1/metrics;
 * src-docs/exports.md, "OpenTelemetry"): each summary metric a gauge {@code aiperf.<tag>} with one data point per
 * statistic, and the request counts as cumulative sums {@code aiperf.timing.*}, every point carrying the model,
 * provider, operation and cell as {@code gen_ai.*} and {@code aiperf.*} attributes.
 */
public final class OtlpMetrics {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> STATS = List.of("avg", "min", "max", "p50", "p90", "p95", "p99", "std");
    private static final List<String> COUNTS = List.of("request_count", "error_request_count");

    private OtlpMetrics() {
    }

    /**
     * @param summary the cell's {@code profile_export_aiperf.json}
     * @param point the attributes of every data point (model, provider, operation, cell)
     * @param fallbackEndNanos the points' time (epoch ns) when the summary has no end time
     */
    public static byte[] request(final JsonNode summary, final ArtifactsConfig.Otel otel, final String version,
                                 final Map<String, String> point, final long fallbackEndNanos) {
        final long end = epochNanos(summary.path(SummaryCodec.END_TIME).asText(null), fallbackEndNanos);
        final long start = epochNanos(summary.path(SummaryCodec.START_TIME).asText(null), end);
        final ObjectNode root = JSON.createObjectNode();
        final ObjectNode rm = root.putArray("resourceMetrics").addObject();
        final ArrayNode resource = rm.putObject("resource").putArray("attributes");
        attribute(resource, "service.name", "aiperf-java");
        attribute(resource, "service.version", version);
        otel.resourceAttributes().forEach((k, v) -> attribute(resource, k, v));
        final ObjectNode scope = rm.putArray("scopeMetrics").addObject();
        scope.putObject("scope").put("name", "aiperf-java").put("version", version);
        final ArrayNode metrics = scope.putArray("metrics");
        summary.properties().forEach(e -> {
            final JsonNode m = e.getValue();
            if (!SummaryCodec.isMetric(m) || !m.path(SummaryCodec.AVG).isNumber()) {
                return;
            }
            if (COUNTS.contains(e.getKey())) {
                if (otel.timing()) {
                    final ObjectNode sum = metrics.addObject().put("name", "aiperf.timing." + e.getKey())
                            .put("unit", "{request}").putObject("sum");
                    sum.put("aggregationTemporality", 2).put("isMonotonic", true);
                    final ObjectNode dp = sum.putArray("dataPoints").addObject();
                    attributes(dp, point, null);
                    dp.put("startTimeUnixNano", Long.toString(start)).put("timeUnixNano", Long.toString(end))
                            .put("asInt", Long.toString(m.path(SummaryCodec.AVG).asLong()));
                }
                return;
            }
            if (!otel.metrics()) {
                return;
            }
            final ObjectNode gauge = metrics.addObject().put("name", "aiperf." + e.getKey())
                    .put("unit", m.path(SummaryCodec.UNIT).asText()).putObject("gauge");
            final ArrayNode points = gauge.putArray("dataPoints");
            for (final String stat : STATS) {
                if (m.path(stat).isNumber()) {
                    final ObjectNode dp = points.addObject();
                    attributes(dp, point, stat);
                    dp.put("timeUnixNano", Long.toString(end)).put("asDouble", m.path(stat).asDouble());
                }
            }
        });
        try {
            return JSON.writeValueAsBytes(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long epochNanos(final String iso, final long fallback) {
        try {
            final java.time.Instant t = java.time.Instant.parse(iso);
            return t.getEpochSecond() * 1_000_000_000L + t.getNano();
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    private static void attributes(final ObjectNode dp, final Map<String, String> point, final String stat) {
        final ArrayNode a = dp.putArray("attributes");
        point.forEach((k, v) -> attribute(a, k, v));
        if (stat != null) {
            attribute(a, "aiperf.stat", stat);
        }
    }

    private static void attribute(final ArrayNode list, final String key, final String value) {
        list.addObject().put("key", key).putObject("value").put("stringValue", value);
    }
}
