package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;

/**
 * The explicitly typed CLI values as a canonical config tree, plus which flag set which path so errors can
 * name the flag. Untyped flags never appear here, so they never override YAML (AIPerf's configuration docs).
 */
public final class CliOverlay {
    private final ObjectNode root = JsonNodeFactory.instance.objectNode();
    private final Map<String, String> flags = new HashMap<>();
    /** Phase keys reserved where the parse sets them ("profiling.concurrency"), to the flag that fills them. */
    private final Map<String, String> slots = new HashMap<>();
    private boolean addsWarmup;
    /** The option table of the options that set these values; null for the one the CLI declares. */
    private final DeclaredOptions declared;

    /** An overlay of options the CLI declares ({@link DeclaredOptions#installed}). */
    public CliOverlay() {
        this(null);
    }

    /**
     * An overlay of options whose table is {@code declared} (a command that adds options to the declared ones):
     * the binder accepts their keys and the sweep takes their axes.
     */
    public CliOverlay(final DeclaredOptions declared) {
        this.declared = declared;
    }

    /** The option table the binder and the sweep read these values with. */
    DeclaredOptions declared() {
        return declared == null ? DeclaredOptions.installed() : declared;
    }

    /** A copy to vary by value (a capacity search's point, the model found): this overlay stays as it is. */
    public CliOverlay copy() {
        final CliOverlay out = new CliOverlay(declared);
        out.root.setAll(root.deepCopy());
        out.flags.putAll(flags);
        out.slots.putAll(slots);
        out.addsWarmup = addsWarmup;
        return out;
    }

    /** The typed values; a reserved key no flag filled is not in it. */
    public ObjectNode tree() {
        if (slots.isEmpty()) {
            return root;
        }
        final ObjectNode out = root.deepCopy();
        final JsonNode phases = out.path("benchmark").path("phases");
        for (final String slot : slots.keySet()) {
            final String[] parts = slot.split("\\.");
            for (final JsonNode p : phases) {
                if (p.path("name").asText().equals(parts[0])) {
                    ((ObjectNode) p).remove(parts[1]);
                }
            }
        }
        if (phases.isArray()) {
            // a phase only reserved (its name alone) was never set, nor were phases only reserved
            for (int i = phases.size() - 1; i >= 0; i--) {
                if (phases.get(i).size() == 1) {
                    ((ArrayNode) phases).remove(i);
                }
            }
            if (phases.isEmpty()) {
                ((ObjectNode) out.get("benchmark")).remove("phases");
            }
            if (out.get("benchmark").isEmpty()) {
                out.remove("benchmark");
            }
        }
        return out;
    }

    /**
     * Reserves a key of a phase where the parse would set it, so that a value set later by the same flag (a capacity
     * search's point, varied by value) takes the place a typed value would have; set by another flag, it goes last,
     * as it would.
     */
    public CliOverlay slot(final String phaseName, final String key, final String flag) {
        final ObjectNode target = phaseNode(phaseName);
        if (!target.has(key)) {
            target.putNull(key);
            slots.put(phaseName + "." + key, flag);
        }
        return this;
    }

    public Map<String, String> flags() {
        return flags;
    }

    boolean addsWarmup() {
        return addsWarmup;
    }

    /** Sets {@code benchmark.<dotted>} when {@code value} is non-null. */
    public CliOverlay set(final String dotted, final Object value, final String flag) {
        if (value == null) {
            return this;
        }
        final String[] parts = dotted.split("\\.");
        ObjectNode node = benchmark();
        for (int i = 0; i < parts.length - 1; i++) {
            node = node.has(parts[i]) && node.get(parts[i]).isObject() ? (ObjectNode) node.get(parts[i])
                    : node.putObject(parts[i]);
        }
        node.set(parts[parts.length - 1], toNode(value));
        flags.put("benchmark." + dotted, flag);
        return this;
    }

    /** Sets a field of the profiling or warmup phase when {@code value} is non-null. */
    public CliOverlay phase(final String phaseName, final String key, final Object value, final String flag) {
        if (value == null) {
            return this;
        }
        final ObjectNode target = phaseNode(phaseName);
        final String reservedFor = slots.remove(phaseName + "." + key);
        if (reservedFor != null && !reservedFor.equals(flag)) {
            target.remove(key); // another flag's value: where it would go without the reservation
        }
        target.set(key, toNode(value));
        flags.put("benchmark.phases." + phaseName + "." + key, flag);
        return this;
    }

    /** Sets {@code multi_run.<key>} when {@code value} is non-null. */
    public CliOverlay multiRun(final String key, final Object value, final String flag) {
        if (value == null) {
            return this;
        }
        final ObjectNode m = root.has("multi_run") ? (ObjectNode) root.get("multi_run") : root.putObject("multi_run");
        m.set(key, plain(value));
        flags.put("multi_run." + key, flag);
        return this;
    }

    /** Adds a sweep axis ({@code name} is a sweep path or shorthand such as {@code concurrency}). */
    public CliOverlay sweepAxis(final String name, final java.util.List<? extends Number> values, final String flag) {
        final ObjectNode sweep = root.has("sweep") ? (ObjectNode) root.get("sweep") : root.putObject("sweep");
        final ObjectNode params = sweep.has("parameters") ? (ObjectNode) sweep.get("parameters") : sweep.putObject("parameters");
        final ArrayNode arr = params.putArray(name);
        values.forEach(v -> arr.add(plain(v)));
        flags.put("sweep.parameters." + name, flag);
        return this;
    }

    public CliOverlay sweepType(final String type) {
        if (type != null) {
            (root.has("sweep") ? (ObjectNode) root.get("sweep") : root.putObject("sweep")).put("type", type);
        }
        return this;
    }

    /** Sets the envelope's {@code no_sweep_table} when the flag was given. */
    public CliOverlay noSweepTable(final Boolean noTable) {
        if (noTable != null) {
            root.put("no_sweep_table", noTable);
            flags.put("no_sweep_table", "--no-sweep-table");
        }
        return this;
    }

    public CliOverlay randomSeed(final Long seed) {
        if (seed != null) {
            root.put("random_seed", seed);
            flags.put("random_seed", "--random-seed");
        }
        return this;
    }

    private ObjectNode phaseNode(final String phaseName) {
        final ArrayNode phases = benchmark().has("phases") ? (ArrayNode) benchmark().get("phases")
                : benchmark().putArray("phases");
        for (final JsonNode p : phases) {
            if (p.path("name").asText().equals(phaseName)) {
                return (ObjectNode) p;
            }
        }
        final ObjectNode target = phases.addObject();
        target.put("name", phaseName);
        if (phaseName.equals("warmup")) {
            addsWarmup = true;
        }
        return target;
    }

    private ObjectNode benchmark() {
        return root.has("benchmark") ? (ObjectNode) root.get("benchmark") : root.putObject("benchmark");
    }

    private static JsonNode toNode(final Object value) {
        return value instanceof JsonNode n ? n : plain(value);
    }

    private static JsonNode plain(final Object value) {
        final JsonNodeFactory f = JsonNodeFactory.instance;
        if (value instanceof Boolean b) {
            return f.booleanNode(b);
        }
        if (value instanceof Integer i) {
            return f.numberNode(i);
        }
        if (value instanceof Long l) {
            return f.numberNode(l);
        }
        if (value instanceof Double d) {
            return f.numberNode(d);
        }
        if (value instanceof Iterable<?> items) {
            final ArrayNode arr = f.arrayNode();
            items.forEach(item -> arr.add(String.valueOf(item)));
            return arr;
        }
        return f.textNode(String.valueOf(value));
    }
}
