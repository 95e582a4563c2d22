package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The service sections upstream AIPerf 0.13 always writes in {@code input_config}, beside the benchmark body:
 * {@code gpu_telemetry}, {@code server_metrics}, {@code network_latency}, {@code otel}, {@code mlflow} and
 * {@code wandb}. A section the user gave keeps its settings, in upstream's mapping form and place (this engine keeps
 * GPU telemetry and server metrics under the endpoint); one not given says what this engine did: server metrics on,
 * GPU telemetry and network-latency adjustment off, nothing pushed to OTel, MLflow or W&amp;B.
 */
final class InputConfigSections {
    private InputConfigSections() {
    }

    /** Adds the six sections to {@code echo} (an {@code input_config} being built), moving the endpoint's two. */
    static void add(final ObjectNode echo) {
        final JsonNode endpoint = echo.get("endpoint");
        final ObjectNode e = endpoint instanceof ObjectNode o ? o : null;
        echo.set("gpu_telemetry", section(e == null ? null : e.remove("gpu_telemetry"), false));
        final ObjectNode metrics = section(e == null ? null : e.remove("server_metrics"), true);
        if (!metrics.has("urls") && metrics.path("enabled").asBoolean()) {
            metrics.putArray("urls"); // none given: the endpoint's own /metrics, as upstream's empty list
        }
        if (!metrics.has("formats") && metrics.path("enabled").asBoolean()) {
            metrics.putArray("formats").add("json").add("csv");
        }
        echo.set("server_metrics", metrics);
        echo.putObject("network_latency").put("enabled", false);
        if (!echo.path("artifacts").has("otel")) {
            echo.putObject("otel"); // an OTel push given sits under artifacts here (exports.md)
        }
        echo.putObject("mlflow");
        echo.putObject("wandb");
    }

    /** A given value in upstream's mapping form: true/false, a URL or a list of them, or a mapping as it is. */
    private static ObjectNode section(final JsonNode given, final boolean enabledByDefault) {
        final ObjectNode out = JsonNodeFactory.instance.objectNode();
        if (given instanceof ObjectNode o) {
            out.setAll(o);
            if (!out.has("enabled")) {
                out.put("enabled", true); // upstream's mapping is on unless it says otherwise
            }
            return out;
        }
        if (given != null && given.isBoolean()) {
            out.put("enabled", given.booleanValue());
        } else if (given != null && (given.isTextual() || given.isArray())) {
            out.put("enabled", true);
            final ArrayNode urls = out.putArray("urls");
            if (given.isTextual()) {
                urls.add(given);
            } else {
                urls.addAll((ArrayNode) given);
            }
        } else {
            out.put("enabled", enabledByDefault);
        }
        return out;
    }
}
