package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.DatasetConfig;
import io.aiperf.engine.config.EndpointType;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The {@code input_config} block of the summary JSON as upstream AIPerf 0.13's command line writes it: the benchmark
 * body as the user gave it, without the defaults the engine filled in and without nulls, plus what upstream's
 * command line always sets: models as {@code models.items[].name} (with {@code strategy} when one was chosen), one
 * dataset ({@link InputConfigDataset}), the phases with their kind and type ({@link InputConfigPhases}),
 * {@code artifacts.auto_plot} and {@code plot_required}, and 0.13's six service sections
 * ({@link InputConfigSections}), in upstream's section order. Exports of earlier builds held the resolved config with
 * {@code models} as names and a single {@code dataset}; readers take both shapes.
 */
public final class InputConfigEcho {
    /** Upstream's sections in its order (its benchmark config's fields); this engine's own follow as given. */
    private static final List<String> ORDER = List.of("models", "endpoint", "datasets", "phases", "artifacts", "slos",
            "tokenizer", "gpu_telemetry", "server_metrics", "network_latency", "otel", "mlflow", "wandb", "runtime",
            "logging", "metrics", "accuracy");
    /** Upstream's leading artifacts keys in its order; the rest follow as given. */
    private static final List<String> ARTIFACTS = List.of("dir", "prefix", "summary", "records", "raw", "trace",
            "slice_duration", "show_trace_timing", "user_files", "auto_plot", "plot_required", "export_outputs_json");

    private InputConfigEcho() {
    }

    /**
     * @param givenEnvelope the configuration as given ({@code benchmark} plus envelope keys), secrets redacted
     * @param resolved the configuration the run used: the seed, the dataset's type, each phase's kind and type, the
     *                 plot switches
     */
    public static ObjectNode of(final ObjectNode givenEnvelope, final BenchmarkConfig resolved) {
        final JsonNode body = givenEnvelope.path("benchmark");
        final ObjectNode out = body.isObject() ? ((ObjectNode) body).deepCopy() : JsonNodeFactory.instance.objectNode();
        final JsonNode endpoint = out.get("endpoint");
        final JsonNode strategy = endpoint instanceof ObjectNode e ? e.remove("model_selection") : null;
        final JsonNode given = out.remove("models");
        final ArrayNode names = JsonNodeFactory.instance.arrayNode();
        if (given != null && given.isArray()) {
            names.addAll((ArrayNode) given);
        } else if (given != null && given.isTextual()) {
            names.add(given); // the `model: name` shorthand
        }
        if (!names.isEmpty()) {
            final ObjectNode models = JsonNodeFactory.instance.objectNode();
            if (strategy != null) {
                models.set("strategy", strategy);
            }
            final ArrayNode items = models.putArray("items");
            names.forEach(n -> items.addObject().put("name", n.asText()));
            out.set("models", models);
        }
        dropNulls(out);
        final JsonNode phases = out.remove("phases");
        // upstream keeps the seed with the dataset it draws; an older echo had it at the top
        final JsonNode seed = out.remove("random_seed");
        final Long runSeed = resolved.randomSeed() != null ? resolved.randomSeed()
                : seed != null && seed.canConvertToLong() ? Long.valueOf(seed.asLong()) : null;
        final boolean text = resolved.endpoint() == null || resolved.endpoint().type() != EndpointType.IMAGE_RETRIEVAL;
        out.putArray("datasets").add(InputConfigDataset.of(out.remove("dataset"), resolved.dataset(),
                InputConfigPhases.profiling(phases, resolved.phases()), runSeed, text));
        final DatasetConfig.InputFile file = resolved.dataset() == null ? null : resolved.dataset().file();
        out.set("phases", InputConfigPhases.of(phases, resolved.phases(),
                file == null || file.timestampsMs() == null ? null : file.timestampsMs().size()));
        if (out.path("endpoint").has("type") && resolved.endpoint() != null) {
            // upstream's spelling of the type (nim_rankings), whichever the user typed (nim-rankings)
            ((ObjectNode) out.get("endpoint")).put("type", resolved.endpoint().type().wireName());
        }
        out.set("artifacts", artifacts(out.remove("artifacts"), resolved));
        InputConfigSections.add(out);
        return reorder(out);
    }

    /** The artifacts as given, with upstream's two plot switches always said. */
    private static ObjectNode artifacts(final JsonNode given, final BenchmarkConfig resolved) {
        final ObjectNode in = given instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
        if (!in.has("auto_plot")) {
            in.put("auto_plot", resolved.artifacts() != null && resolved.artifacts().autoPlot());
        }
        if (!in.has("plot_required")) {
            in.put("plot_required", resolved.artifacts() != null && resolved.artifacts().plotRequired());
        }
        final ObjectNode out = JsonNodeFactory.instance.objectNode();
        ARTIFACTS.stream().filter(in::has).forEach(k -> out.set(k, in.remove(k)));
        out.setAll(in);
        return out;
    }

    private static void dropNulls(final JsonNode node) {
        if (node instanceof ObjectNode o) {
            final Iterator<Map.Entry<String, JsonNode>> it = o.properties().iterator();
            while (it.hasNext()) {
                final JsonNode v = it.next().getValue();
                if (v.isNull()) {
                    it.remove();
                } else {
                    dropNulls(v);
                }
            }
        } else if (node instanceof ArrayNode a) {
            a.forEach(InputConfigEcho::dropNulls);
        }
    }

    private static ObjectNode reorder(final ObjectNode in) {
        final ObjectNode out = JsonNodeFactory.instance.objectNode();
        ORDER.stream().filter(in::has).forEach(k -> out.set(k, in.remove(k)));
        out.setAll(in);
        return out;
    }
}
