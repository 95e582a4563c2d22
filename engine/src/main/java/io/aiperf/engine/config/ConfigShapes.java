package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites AIPerf's shorthand forms into one canonical tree (AIPerf's configuration docs): {@code model} to
 * {@code models}, {@code url} to {@code urls}, {@code datasets: [one]} to {@code dataset},
 * {@code dataset.isl} into {@code prompts.isl}, ISL/OSL numbers into {@code {mean, stddev}}, and phases in
 * mapping or envelope form into a named list. Unknown keys are left in place for the binder to reject.
 */
final class ConfigShapes {
    static final List<String> ENVELOPE_KEYS = List.of("schema_version", "benchmark", "random_seed", "multi_run",
            "sweep", "no_sweep_table", "search");
    private static final Set<String> CANONICAL_PHASES = Set.of("warmup", "profiling");

    private ConfigShapes() {
    }

    static ObjectNode canonical(final ObjectNode envelope) {
        new Section(envelope, "", Map.of()).allowOnly(ENVELOPE_KEYS);
        final JsonNode body = envelope.get("benchmark");
        if (body == null || body.isNull()) {
            throw new ConfigException("benchmark", "the config file needs a 'benchmark:' section");
        }
        if (!body.isObject()) {
            throw new ConfigException("benchmark", "expected a mapping, got " + Section.typeName(body));
        }
        final ObjectNode b = (ObjectNode) body;
        rename(b, "model", "models", "benchmark");
        if (b.has("models") && b.get("models").isObject()) {
            final JsonNode items = b.get("models").get("items");
            final ArrayNode names = JsonNodeFactory.instance.arrayNode();
            if (items != null && items.isArray()) {
                for (final JsonNode item : items) {
                    names.add(item.isObject() ? item.path("name").asText() : item.asText());
                }
            }
            b.set("models", names);
        }
        if (b.has("endpoint") && b.get("endpoint").isObject()) {
            rename((ObjectNode) b.get("endpoint"), "url", "urls", "benchmark.endpoint");
        }
        if (b.has("datasets")) {
            final JsonNode ds = b.remove("datasets");
            if (!ds.isArray() || ds.size() != 1) {
                throw new ConfigException("benchmark.datasets", "exactly one dataset is supported");
            }
            if (b.has("dataset")) {
                throw new ConfigException("benchmark.dataset", "give either 'dataset' or 'datasets', not both");
            }
            b.set("dataset", ds.get(0));
        }
        if (b.has("dataset") && b.get("dataset").isObject()) {
            shapeDataset((ObjectNode) b.get("dataset"));
        }
        if (b.has("goodput") && !b.has("slos")) {
            b.set("slos", b.remove("goodput"));
        }
        if (b.has("tokenizer") && b.get("tokenizer").isTextual()) {
            final String name = b.get("tokenizer").textValue();
            b.putObject("tokenizer").put("name", name);
        }
        if (b.has("phases")) {
            b.set("phases", phaseList(b.get("phases")));
        }
        return envelope;
    }

    private static void rename(final ObjectNode node, final String from, final String to, final String path) {
        if (node.has(from)) {
            if (node.has(to)) {
                throw new ConfigException(path + "." + from, "give either '" + from + "' or '" + to + "', not both");
            }
            node.set(to, node.remove(from));
        }
    }

    private static void shapeDataset(final ObjectNode ds) {
        for (final String key : List.of("turns", "turn_delay")) {
            final JsonNode v = ds.get(key);
            if (v != null && v.isNumber()) {
                ds.putObject(key).set("mean", v);
            }
        }
        for (final String key : List.of("isl", "osl")) {
            if (ds.has(key)) {
                final ObjectNode prompts = ds.has("prompts") && ds.get("prompts").isObject()
                        ? (ObjectNode) ds.get("prompts") : ds.putObject("prompts");
                prompts.set(key, ds.remove(key));
            }
        }
        if (ds.has("prompts") && ds.get("prompts").isObject()) {
            final ObjectNode prompts = (ObjectNode) ds.get("prompts");
            for (final String key : List.of("isl", "osl")) {
                final JsonNode v = prompts.get(key);
                if (v != null && v.isNumber()) {
                    final ObjectNode dist = prompts.putObject(key);
                    dist.set("mean", v);
                    dist.put("stddev", 0);
                } else if (v != null && v.isObject() && v.has("type")) {
                    final String type = v.get("type").asText();
                    if (!type.equalsIgnoreCase("normal") && !type.equalsIgnoreCase("fixed")) {
                        throw new ConfigException("benchmark.dataset.prompts." + key + ".type",
                                "unsupported distribution '" + type + "'; expected normal or fixed");
                    }
                    ((ObjectNode) v).remove("type");
                }
            }
        }
    }

    /** Named list form for every accepted phases shape. */
    static ArrayNode phaseList(final JsonNode phases) {
        if (phases.isArray()) {
            return (ArrayNode) phases;
        }
        if (!phases.isObject()) {
            throw new ConfigException("benchmark.phases", "expected a list of phases or a mapping, got "
                    + Section.typeName(phases));
        }
        final ArrayNode out = JsonNodeFactory.instance.arrayNode();
        boolean envelope = phases.size() > 0;
        final Iterator<Map.Entry<String, JsonNode>> check = phases.properties().iterator();
        while (check.hasNext()) {
            final Map.Entry<String, JsonNode> e = check.next();
            envelope &= CANONICAL_PHASES.contains(e.getKey()) && e.getValue().isObject();
        }
        if (!envelope) {
            final ObjectNode single = ((ObjectNode) phases).deepCopy();
            if (!single.has("name")) {
                single.put("name", "profiling");
            }
            out.add(single);
            return out;
        }
        for (final String name : List.of("warmup", "profiling")) {
            if (phases.has(name)) {
                final ObjectNode p = ((ObjectNode) phases.get(name)).deepCopy();
                p.put("name", name);
                out.add(p);
            }
        }
        return out;
    }
}
