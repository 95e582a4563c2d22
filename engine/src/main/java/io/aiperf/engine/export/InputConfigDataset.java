package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.DatasetConfig;
import java.util.List;

/**
 * The one dataset of {@code input_config} as upstream AIPerf 0.13's command line writes it: named {@code main}, with
 * its {@code type} (synthetic, file or public), the {@code entries} the user's counts imply, the run's
 * {@code random_seed}, and the sequence lengths as decimals ({@code 64.0}, upstream's float fields).
 */
final class InputConfigDataset {
    /** Upstream's name for the dataset its command line builds. */
    static final String DEFAULT_NAME = "main";
    /** Upstream's leading keys of a dataset, in its order; the rest follow as given. */
    private static final List<String> ORDER = List.of("name", "type", "path", "format", "entries", "random_seed");

    private InputConfigDataset() {
    }

    /**
     * @param given the dataset as given, or null
     * @param resolved the dataset the engine runs (for its type)
     * @param profiling the profiling phase as given (its {@code sessions} or {@code requests} size the dataset, as
     *                  upstream's {@code --num-conversations} and {@code --request-count} do), or null
     * @param randomSeed the run's seed, or null
     */
    static ObjectNode of(final JsonNode given, final DatasetConfig resolved, final JsonNode profiling,
                         final Long randomSeed) {
        final ObjectNode in = given instanceof ObjectNode o ? o.deepCopy() : JsonNodeFactory.instance.objectNode();
        if (!in.hasNonNull("name")) {
            in.put("name", DEFAULT_NAME);
        }
        if (!in.has("type")) {
            in.put("type", type(resolved));
        }
        if (!in.has("entries") && profiling != null) {
            // upstream: --num-dataset-entries, else --num-conversations, else --request-count, when given
            final JsonNode count = profiling.hasNonNull("sessions") ? profiling.get("sessions")
                    : profiling.get("requests");
            if (count != null && count.isIntegralNumber()) {
                in.set("entries", count);
            }
        }
        if (randomSeed != null && !in.has("random_seed")) {
            in.put("random_seed", randomSeed);
        }
        decimals(in.path("prompts").path("isl"));
        decimals(in.path("prompts").path("osl"));
        decimals(in.path("turns"));
        final ObjectNode out = JsonNodeFactory.instance.objectNode();
        ORDER.stream().filter(in::has).forEach(k -> out.set(k, in.remove(k)));
        out.setAll(in);
        return out;
    }

    private static String type(final DatasetConfig d) {
        if (d == null || d.publicDataset() == null && d.file() == null) {
            return "synthetic";
        }
        return d.publicDataset() != null ? "public" : "file";
    }

    /** A distribution's whole numbers as decimals: upstream's means and deviations are floats. */
    private static void decimals(final JsonNode distribution) {
        if (distribution instanceof ObjectNode o) {
            for (final String k : List.of("mean", "stddev")) {
                if (o.path(k).isIntegralNumber()) {
                    o.put(k, o.get(k).doubleValue());
                }
            }
        }
    }
}
