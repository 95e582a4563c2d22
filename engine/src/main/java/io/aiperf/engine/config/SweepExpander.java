package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Expands {@code sweep: {type: grid|zip, parameters: {path: [values]}}} into variations (AIPerf's multi-run and sweep docs).
 * Paths are dotted into the benchmark body ({@code phases.profiling.concurrency}, {@code dataset.prompts.isl});
 * the key of a sweeping option ({@link DeclaredOptions#sweepAxis}: {@code concurrency}, {@code rate},
 * {@code requests}, {@code duration}, ...), a few more phase fields and {@code isl}/{@code osl} are shorthands. Grid
 * varies the last axis fastest; zip walks the lists in lockstep. Duplicate values are rejected because their
 * directories would collide.
 */
final class SweepExpander {
    /** Phase fields a sweep may name alone although their flags take one value (no comma list). */
    private static final Set<String> ONE_VALUE_FLAG_AXES = Set.of("prefill_concurrency", "sessions", "users",
            "smoothness", "grace_period");

    private record Axis(String name, String path, List<JsonNode> values) {
    }

    private SweepExpander() {
    }

    /**
     * @param unbound the merged envelope before binding (not modified)
     * @param declared the option table: the sweeping options' axes, and the binder's keys
     * @param inputs the files and environment each point's binding reads
     */
    static List<Variation> expand(final ObjectNode unbound, final JsonNode sweep, final Map<String, String> cliFlags,
                                  final DeclaredOptions declared, final ConfigInputs inputs) {
        if (!sweep.isObject()) {
            throw new ConfigException("sweep", "expected a mapping with type and parameters");
        }
        new Section((ObjectNode) sweep, "sweep", cliFlags).allowOnly(List.of("type", "parameters"));
        final String type = sweep.path("type").asText("grid").toLowerCase(Locale.ROOT);
        if (!type.equals("grid") && !type.equals("zip")) {
            throw new ConfigException("sweep.type", "expected grid or zip, got '" + type + "'");
        }
        final JsonNode params = sweep.path("parameters");
        if (!params.isObject() || params.isEmpty()) {
            throw new ConfigException("sweep.parameters", "needs at least one parameter with a list of values");
        }
        final List<Axis> axes = new ArrayList<>();
        final Iterator<Map.Entry<String, JsonNode>> it = params.properties().iterator();
        while (it.hasNext()) {
            final Map.Entry<String, JsonNode> e = it.next();
            final String field = "sweep.parameters." + e.getKey();
            if (!e.getKey().matches("[A-Za-z_][A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]+)*")) { // found by fuzzing: "." crashed
                throw new ConfigException(field, "a parameter is a dotted path such as phases.profiling.concurrency");
            }
            if (!e.getValue().isArray() || e.getValue().isEmpty()) {
                throw new ConfigException(field, "expected a non-empty list of values");
            }
            final List<JsonNode> values = new ArrayList<>();
            final Set<String> seen = new HashSet<>();
            for (final JsonNode v : e.getValue()) {
                if (!seen.add(v.asText())) {
                    throw new ConfigException(field, "duplicate value " + v + " (its cell directories would collide)");
                }
                values.add(v);
            }
            axes.add(new Axis(name(e.getKey(), declared), path(e.getKey(), declared), values));
        }
        if (!type.equals("grid") && axes.stream().map(a -> a.values().size()).distinct().count() > 1) {
            throw new ConfigException("sweep.parameters", "zip sweep parameters must all have equal length");
        }
        final List<List<JsonNode>> points = type.equals("grid") ? grid(axes) : zip(axes);
        final List<Variation> out = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            final ObjectNode tree = unbound.deepCopy(); // the point's values go into its own copy
            final Map<String, Object> values = new LinkedHashMap<>();
            final List<String> labelParts = new ArrayList<>();
            for (int a = 0; a < axes.size(); a++) {
                final JsonNode v = points.get(i).get(a);
                apply(tree, axes.get(a).path(), v.deepCopy()); // a value of the sweep section, which is not changed
                values.put(axes.get(a).name(), v.isNumber() ? v.numberValue() : v.asText());
                labelParts.add(axes.get(a).name() + "_" + v.asText());
            }
            tree.remove("sweep");
            final BenchmarkConfig config = ConfigBinder.bind(tree, cliFlags, declared, inputs);
            out.add(new Variation(String.join("__", labelParts), i, values, config));
        }
        return out;
    }

    private static List<List<JsonNode>> grid(final List<Axis> axes) {
        List<List<JsonNode>> acc = List.of(List.of());
        for (final Axis axis : axes) {
            final List<List<JsonNode>> next = new ArrayList<>();
            for (final List<JsonNode> prefix : acc) {
                for (final JsonNode v : axis.values()) {
                    final List<JsonNode> p = new ArrayList<>(prefix);
                    p.add(v);
                    next.add(p);
                }
            }
            acc = next;
        }
        return acc;
    }

    private static List<List<JsonNode>> zip(final List<Axis> axes) {
        final List<List<JsonNode>> out = new ArrayList<>();
        for (int i = 0; i < axes.get(0).values().size(); i++) {
            final List<JsonNode> p = new ArrayList<>();
            for (final Axis axis : axes) {
                p.add(axis.values().get(i));
            }
            out.add(p);
        }
        return out;
    }

    /** The canonical dotted path inside {@code benchmark}. */
    static String path(final String key, final DeclaredOptions declared) {
        final String axis = declared.sweepAxis(key);
        if (axis != null) {
            return axis;
        }
        if (ONE_VALUE_FLAG_AXES.contains(key)) {
            return "phases.profiling." + key;
        }
        if (key.equals("isl") || key.equals("osl")) {
            return "dataset.prompts." + key;
        }
        final String k = key.startsWith("benchmark.") ? key.substring("benchmark.".length()) : key;
        return k.replaceFirst("^datasets\\.[^.]+\\.", "dataset.");
    }

    /** The label name of an axis: its last path segment ({@code isl.mean} counts as {@code isl}). */
    static String name(final String key, final DeclaredOptions declared) {
        final String[] parts = path(key, declared).split("\\.");
        final String last = parts[parts.length - 1];
        return (last.equals("mean") && parts.length > 1) ? parts[parts.length - 2] : last;
    }

    private static void apply(final ObjectNode envelope, final String path, final JsonNode value) {
        final ObjectNode body = envelope.has("benchmark") ? (ObjectNode) envelope.get("benchmark")
                : envelope.putObject("benchmark");
        final String[] parts = path.split("\\.");
        if (parts[0].equals("phases")) {
            if (parts.length != 3) {
                throw new ConfigException("sweep.parameters." + path, "expected phases.<name or index>.<field>");
            }
            final ArrayNode phases = body.has("phases") ? ConfigShapes.phaseList(body.get("phases")) : body.putArray("phases");
            body.set("phases", phases);
            findPhase(phases, parts[1], path).set(parts[2], value);
            return;
        }
        ObjectNode node = body;
        for (int i = 0; i < parts.length - 1; i++) {
            final JsonNode child = node.get(parts[i]);
            node = child != null && child.isObject() ? (ObjectNode) child : node.putObject(parts[i]);
        }
        final String leaf = parts[parts.length - 1];
        if ((leaf.equals("isl") || leaf.equals("osl")) && value.isNumber()) {
            final ObjectNode dist = JsonNodeFactory.instance.objectNode();
            dist.set("mean", value);
            dist.put("stddev", node.path(leaf).path("stddev").asDouble(0));
            node.set(leaf, dist);
        } else {
            node.set(leaf, value);
        }
    }

    private static ObjectNode findPhase(final ArrayNode phases, final String selector, final String path) {
        if (selector.matches("\\d+")) {
            final int i = Integer.parseInt(selector);
            if (i < phases.size()) {
                return (ObjectNode) phases.get(i);
            }
        }
        for (final JsonNode p : phases) {
            if (p.path("name").asText().equals(selector)) {
                return (ObjectNode) p;
            }
        }
        if (selector.equals("profiling")) {
            ObjectNode found = null;
            for (final JsonNode p : phases) {
                if (p.path("kind").asText().equals("profiling")) {
                    if (found != null) {
                        throw new ConfigException("sweep.parameters." + path, "several profiling phases; name one");
                    }
                    found = (ObjectNode) p;
                }
            }
            if (found != null) {
                return found;
            }
            final ObjectNode created = phases.addObject();
            created.put("name", "profiling");
            return created;
        }
        throw new ConfigException("sweep.parameters." + path, "no phase '" + selector + "'");
    }
}
