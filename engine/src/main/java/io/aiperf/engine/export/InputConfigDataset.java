package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.DatasetConfig;
import java.util.List;

/**
 * The one dataset of {@code input_config} as upstream AIPerf 0.13's command line writes it: named {@code main}, with
 * its {@code type} (synthetic, file or public), the {@code entries} the user's counts imply, the run's
 * {@code random_seed}, a synthetic text dataset's input length even when not given, a turn count's deviation, and
 * the sequence lengths as decimals ({@code 64.0}, upstream's float fields).
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
     * @param text whether the endpoint takes text: a synthetic dataset then always says its input length, as
     *             upstream's command line does (its default 550)
     */
    static ObjectNode of(final JsonNode given, final DatasetConfig resolved, final JsonNode profiling,
                         final Long randomSeed, final boolean text) {
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
        if (text && "synthetic".equals(in.path("type").asText()) && resolved != null
                && !in.path("prompts").path("isl").has("mean")) {
            final ObjectNode prompts = in.path("prompts") instanceof ObjectNode o ? o : in.putObject("prompts");
            final ObjectNode isl = prompts.path("isl") instanceof ObjectNode o ? o : prompts.putObject("isl");
            isl.put("mean", resolved.islMean());
        }
        if (in.path("turns").has("mean") && !in.path("turns").has("stddev") && resolved != null
                && resolved.turns() != null) {
            // upstream's --conversation-turn-mean writes the deviation beside it
            ((ObjectNode) in.get("turns")).put("stddev", resolved.turns().stddev());
        }
        firstKeys(in.path("prompts"), List.of("isl", "osl"));
        decimals(in.path("prompts").path("isl"));
        decimals(in.path("prompts").path("osl"));
        decimals(in.path("turns"));
        final ObjectNode out = JsonNodeFactory.instance.objectNode();
        ORDER.stream().filter(in::has).forEach(k -> out.set(k, in.remove(k)));
        out.setAll(in);
        return out;
    }

    /** Moves {@code keys} to the front of {@code node}, in their order, as upstream's models order them. */
    private static void firstKeys(final JsonNode node, final List<String> keys) {
        if (node instanceof ObjectNode o) {
            final ObjectNode rest = o.deepCopy();
            o.removeAll();
            keys.stream().filter(rest::has).forEach(k -> o.set(k, rest.remove(k)));
            o.setAll(rest);
        }
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
