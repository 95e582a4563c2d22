package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Lays explicitly typed CLI values over the YAML tree (AIPerf's configuration docs): mappings merge, scalars and lists
 * replace. Load flags target the unique profiling phase; warmup flags target the warmup phase or add one
 * in front. A bare hook flag ({@code true}) keeps the YAML hook object (the control-hooks contract in src-docs/control-hooks.md).
 */
public final class ConfigMerger {
    private ConfigMerger() {
    }

    /** Merges {@code overlay} into {@code base} in place and returns {@code base}. */
    public static ObjectNode merge(final ObjectNode base, final ObjectNode overlay) {
        final Iterator<Map.Entry<String, JsonNode>> it = overlay.properties().iterator();
        while (it.hasNext()) {
            final Map.Entry<String, JsonNode> e = it.next();
            final String key = e.getKey();
            final JsonNode over = e.getValue();
            final JsonNode current = base.get(key);
            if (key.equals("phases") && over.isArray()) {
                base.set(key, mergePhases(current == null || current.isNull()
                        ? JsonNodeFactory.instance.arrayNode() : ConfigShapes.phaseList(current), (ArrayNode) over));
            } else if (current != null && current.isObject() && over.isObject()) {
                merge((ObjectNode) current, (ObjectNode) over);
            } else if (current != null && current.isObject() && over.isBoolean() && over.booleanValue()) {
                continue; // bare enable flag keeps YAML sub-fields
            } else {
                base.set(key, over.deepCopy());
            }
        }
        return base;
    }

    private static ArrayNode mergePhases(final ArrayNode base, final ArrayNode overlay) {
        for (final JsonNode cliPhase : overlay) {
            final String name = cliPhase.path("name").asText();
            final ObjectNode target = findByKind(base, name);
            final ObjectNode patch = ((ObjectNode) cliPhase).deepCopy();
            if (target == null) {
                if (name.equals("warmup")) {
                    base.insert(0, patch);
                } else {
                    base.add(patch);
                }
            } else {
                patch.remove("name");
                merge(target, patch);
            }
        }
        return base;
    }

    private static ObjectNode findByKind(final ArrayNode phases, final String kind) {
        ObjectNode found = null;
        for (final JsonNode p : phases) {
            final String k = p.has("kind") ? p.get("kind").asText() : p.path("name").asText();
            if (p.isObject() && k.equalsIgnoreCase(kind)) {
                if (found != null) {
                    throw new ConfigException("benchmark.phases", "the command-line " + kind
                            + " flags are ambiguous: the config has several phases of kind " + kind);
                }
                found = (ObjectNode) p;
            }
        }
        return found;
    }
}
