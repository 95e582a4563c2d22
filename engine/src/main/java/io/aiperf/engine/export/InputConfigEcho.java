package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * The {@code input_config} block of the summary JSON in upstream AIPerf's shape (its JSON export schema): the
 * benchmark body as the user gave it, without the defaults the engine filled in and without nulls; models as
 * {@code models.items[].name} (with {@code strategy} when one was chosen), the dataset as a one-element
 * {@code datasets} list, upstream 0.13's six service sections ({@link InputConfigSections}), and the run's
 * {@code random_seed}. Exports of earlier builds held the resolved
 * config with {@code models} as names and a single {@code dataset}; readers take both shapes.
 */
public final class InputConfigEcho {
    private InputConfigEcho() {
    }

    /**
     * @param givenEnvelope the configuration as given ({@code benchmark} plus envelope keys), secrets redacted
     * @param randomSeed the run's seed, or null for entropy
     */
    public static ObjectNode of(final ObjectNode givenEnvelope, final Long randomSeed) {
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
        final JsonNode dataset = out.remove("dataset");
        if (dataset instanceof ObjectNode d) {
            final ObjectNode named = JsonNodeFactory.instance.objectNode();
            named.put("name", d.path("name").asText("default"));
            d.remove("name");
            named.setAll(d);
            out.putArray("datasets").add(named);
        }
        if (randomSeed != null) {
            out.put("random_seed", randomSeed);
        }
        dropNulls(out);
        InputConfigSections.add(out);
        return reorder(out);
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

    /**
     * Upstream's section order: models, endpoint, datasets, then the rest as given, the service sections, random_seed
     * last.
     */
    private static ObjectNode reorder(final ObjectNode in) {
        final ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (final String key : java.util.List.of("models", "endpoint", "datasets")) {
            if (in.has(key)) {
                out.set(key, in.remove(key));
            }
        }
        final JsonNode seed = in.remove("random_seed");
        final ObjectNode sections = JsonNodeFactory.instance.objectNode();
        InputConfigSections.ORDER.stream().filter(in::has).forEach(k -> sections.set(k, in.remove(k)));
        out.setAll(in);
        out.setAll(sections);
        if (seed != null) {
            out.set("random_seed", seed);
        }
        return out;
    }
}
