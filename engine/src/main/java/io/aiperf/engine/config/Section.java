package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A mapping in the config tree with its dotted path: typed reads that name the field on error, strict
 * key checking, and defaults written back so the tree ends up as the effective config (the binder's own copy of the
 * tree: {@link ConfigBinder#bind}).
 */
final class Section {
    private final ObjectNode node;
    private final String path;
    private final Map<String, String> cliFlags;
    private final DeclaredOptions declared;

    Section(final ObjectNode node, final String path, final Map<String, String> cliFlags) {
        this(node, path, cliFlags, DeclaredOptions.installed());
    }

    Section(final ObjectNode node, final String path, final Map<String, String> cliFlags,
            final DeclaredOptions declared) {
        this.node = node;
        this.path = path;
        this.cliFlags = cliFlags;
        this.declared = declared;
    }

    ObjectNode node() {
        return node;
    }

    String path() {
        return path;
    }

    String pathOf(final String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** A field name for messages: the dotted path, with the CLI flag when the value came from one. */
    String field(final String key) {
        final String p = pathOf(key);
        final String flag = cliFlags.get(p);
        return flag == null ? p : flag + " (" + p + ")";
    }

    ConfigException error(final String key, final String reason) {
        return new ConfigException(field(key), reason);
    }

    /**
     * Rejects keys outside {@code allowed} (the keys the caller binds by hand) and the option table's keys of this
     * mapping, with AIPerf's wording plus a did-you-mean hint; then binds the table's other keys here.
     */
    void allowOnly(final List<String> hand) {
        // every phase's own mapping shares the declared phase keys; a mapping inside a phase has its own
        final String section = path.matches("benchmark\\.phases\\.[^.]+") ? "benchmark.phases" : path;
        final List<String> allowed = declared.allowed(section, hand);
        final Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            final String k = names.next();
            if (!allowed.contains(k)) {
                throw new ConfigException(pathOf(k), "Extra inputs are not permitted"
                        + Suggestions.didYouMean(k, allowed) + "; known keys: " + allowed);
            }
        }
        declared.bindRest(this, section, hand);
    }

    /** The option table's default of this mapping's {@code key}, as YAML text. */
    String declaredDefault(final String key) {
        return declared.defaultText(sectionOf(pathOf(key)));
    }

    /** {@link #number} with the option table's default. */
    double defaultedNumber(final String key) {
        return number(key, declared.number(sectionOf(pathOf(key))));
    }

    /** {@link #integer} with the option table's default. */
    int defaultedInteger(final String key) {
        return integer(key, declared.integer(sectionOf(pathOf(key))));
    }

    /** {@link #string} with the option table's default. */
    String defaultedString(final String key) {
        return string(key, declaredDefault(key));
    }

    /** A phase's keys are declared on the profiling phase's path. */
    private static String sectionOf(final String path) {
        return path.startsWith("benchmark.phases.") ? path.replaceFirst("^benchmark\\.phases\\.[^.]+\\.",
                "benchmark.phases.profiling.") : path;
    }

    boolean has(final String key) {
        final JsonNode v = node.get(key);
        return v != null && !v.isNull();
    }

    JsonNode raw(final String key) {
        return node.get(key);
    }

    Section section(final String key) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            v = node.putObject(key);
        }
        if (!v.isObject()) {
            throw error(key, "expected a mapping, got " + typeName(v));
        }
        return new Section((ObjectNode) v, pathOf(key), cliFlags, declared);
    }

    String string(final String key, final String def) {
        final JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            if (def != null) {
                node.put(key, def);
            }
            return def;
        }
        if (!v.isValueNode() || v.isBoolean()) {
            throw error(key, "expected a string, got " + typeName(v));
        }
        return v.asText();
    }

    boolean bool(final String key, final boolean def) {
        final JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            node.put(key, def);
            return def;
        }
        if (!v.isBoolean()) {
            throw error(key, "expected true or false, got " + typeName(v));
        }
        return v.booleanValue();
    }

    Integer integer(final String key, final Integer def) {
        final JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            if (def != null) {
                node.put(key, def);
            }
            return def;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw error(key, "Input should be a valid integer, got " + v);
        }
        return v.intValue();
    }

    Long longValue(final String key) {
        final JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw error(key, "Input should be a valid integer, got " + v);
        }
        return v.longValue();
    }

    Double number(final String key, final Double def) {
        final JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            if (def != null) {
                node.put(key, def);
            }
            return def;
        }
        if (v.isNumber()) {
            return v.doubleValue();
        }
        if (v.isTextual() && v.textValue().equalsIgnoreCase("inf")) {
            return Double.POSITIVE_INFINITY;
        }
        throw error(key, "Input should be a valid number, got " + v);
    }

    /** A duration in seconds: a number, or a string such as "30s", "5m", "1h", "inf". */
    Double seconds(final String key) {
        final JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isNumber()) {
            return v.doubleValue();
        }
        if (v.isTextual()) {
            try {
                return Durations.seconds(v.textValue());
            } catch (IllegalArgumentException e) {
                // the error below names the key
            }
        }
        throw error(key, "expected a duration such as 30, \"30s\", \"5m\" or \"1h\", got " + v);
    }

    List<String> stringList(final String key) {
        final JsonNode v = node.get(key);
        final List<String> out = new ArrayList<>();
        if (v == null || v.isNull()) {
            return out;
        }
        if (v.isTextual()) {
            out.add(v.textValue());
            return out;
        }
        if (!v.isArray()) {
            throw error(key, "expected a list of strings, got " + typeName(v));
        }
        for (final JsonNode item : v) {
            if (!item.isValueNode() || item.isNull()) {
                throw error(key, "expected a list of strings, got an item " + typeName(item));
            }
            out.add(item.asText());
        }
        return out;
    }

    static String typeName(final JsonNode v) {
        if (v.isObject()) {
            return "a mapping";
        }
        if (v.isArray()) {
            return "a list";
        }
        if (v.isTextual()) {
            return "a string";
        }
        if (v.isBoolean()) {
            return "a boolean";
        }
        if (v.isNumber()) {
            return "a number";
        }
        return v.getNodeType().name().toLowerCase();
    }
}
