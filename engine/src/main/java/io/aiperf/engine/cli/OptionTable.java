package io.aiperf.engine.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.DeclaredOptions;
import io.aiperf.engine.config.DeclaredOptions.Kind;
import io.aiperf.engine.config.DeclaredOptions.Row;
import io.aiperf.engine.config.Durations;
import io.aiperf.engine.config.Suggestions;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The option table: the picocli {@code @Option} fields of an options class (and of its {@code @Mixin}s) that carry
 * a {@link Yaml} line. Each row is declared once, there; this class derives the rest from it: the overlay of the
 * given flags, the binder's rows ({@link DeclaredOptions}), and the "Default:" of the help.
 */
final class OptionTable {
    /** {@code aiperf profile}'s options (compare's too). */
    static final OptionTable PROFILE = of(ProfileOptions.class);

    /** A row and the fields that lead to its value: the option's own, after those of the mixins holding it. */
    private record Entry(List<Field> fields, Row row) {
        Object value(final Object options) {
            return walk(options, fields.size());
        }

        /** Sets the option's field, in the mixin that holds it. */
        void set(final Object options, final Object value) {
            try {
                fields.get(fields.size() - 1).set(walk(options, fields.size() - 1), value);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }

        private Object walk(final Object options, final int depth) {
            Object value = options;
            try {
                for (final Field f : fields.subList(0, depth)) {
                    value = value == null ? null : f.get(value);
                }
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
            return value;
        }
    }

    /** Turns an option field's value (text, number, list of text) into its YAML node. */
    private static final com.fasterxml.jackson.databind.ObjectMapper VALUES =
            new com.fasterxml.jackson.databind.ObjectMapper();

    private final List<Entry> entries;

    private OptionTable(final List<Entry> entries) {
        this.entries = entries;
    }

    /** The rows of {@code options}' fields and of its {@code @Mixin} fields' classes, in declaration order. */
    static OptionTable of(final Class<?> options) {
        final List<Entry> entries = new ArrayList<>();
        collect(options, List.of(), entries);
        return new OptionTable(List.copyOf(entries));
    }

    private static void collect(final Class<?> options, final List<Field> via, final List<Entry> entries) {
        for (final Field f : options.getDeclaredFields()) {
            final List<Field> path = new ArrayList<>(via);
            path.add(f);
            if (f.isAnnotationPresent(Mixin.class)) {
                f.setAccessible(true);
                collect(f.getType(), path, entries);
                continue;
            }
            final Yaml yaml = f.getAnnotation(Yaml.class);
            final Option option = f.getAnnotation(Option.class);
            if (yaml == null) {
                continue;
            }
            if (option == null) {
                throw new IllegalStateException(f + " has @Yaml but no @Option");
            }
            f.setAccessible(true);
            entries.add(new Entry(List.copyOf(path), new Row(yaml.value(), flag(option), kind(f, option, yaml),
                    yaml.defaultValue().isEmpty() ? null : yaml.defaultValue(), yaml.sweeps())));
        }
    }

    List<Row> rows() {
        return entries.stream().map(Entry::row).toList();
    }

    /** Sets the key of every row whose flag was given, but the sweeping rows' ({@link #overlaySweeps}). */
    void overlay(final Object options, final CliOverlay o) {
        for (final Entry e : entries) {
            final Row r = e.row();
            final Object value = e.value(options);
            if (value == null || r.sweeps()) {
                continue;
            }
            final String path = r.path();
            if (path.startsWith("benchmark.phases.")) {
                final String[] parts = path.split("\\.");
                o.phase(parts[2], parts[3], value, r.flag());
            } else if (path.startsWith("benchmark.")) {
                o.set(path.substring("benchmark.".length()), value, r.flag());
            } else if (path.startsWith("multi_run.")) {
                o.multiRun(path.substring("multi_run.".length()), value, r.flag());
            } else {
                throw new IllegalStateException(r.flag() + ": no overlay for the key " + path);
            }
        }
    }

    /**
     * Sets the key of every sweeping row whose flag was given ({@link #sweep}), in declaration order, but those of
     * {@code placed}: the paths the caller sets itself, where they go in the tree.
     */
    void overlaySweeps(final Object options, final CliOverlay o, final List<String> placed) {
        for (final Entry e : entries) {
            if (e.row().sweeps() && !placed.contains(e.row().path())) {
                sweep(e.row().path(), (String) e.value(options), o);
            }
        }
    }

    /**
     * Sets the sweeping row {@code path} from its flag's text: one value sets its key, a comma list adds a sweep axis
     * named by its key. Nothing when {@code text} is null.
     *
     * @throws ConfigException naming the flag for a value that is not of the row's kind
     */
    void sweep(final String path, final String text, final CliOverlay o) {
        final Row r = entries.stream().map(Entry::row).filter(x -> x.sweeps() && x.path().equals(path)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no sweeping option sets " + path));
        if (text == null) {
            return;
        }
        final List<Number> values = new ArrayList<>();
        for (final String part : text.split(",")) {
            values.add(sweepValue(r, part.trim()));
        }
        if (values.size() > 1) {
            o.sweepAxis(r.key(), values, r.flag());
        } else if (path.startsWith("benchmark.phases.")) {
            final String[] parts = path.split("\\.");
            o.phase(parts[2], parts[3], values.get(0), r.flag());
        } else {
            o.set(path.substring("benchmark.".length()), values.get(0), r.flag());
        }
    }

    private static Number sweepValue(final Row r, final String text) {
        final boolean whole = r.kind() == Kind.INTEGER || r.kind() == Kind.LONG;
        try {
            return switch (r.kind()) {
                case INTEGER -> Integer.valueOf(text);
                case LONG -> Long.valueOf(text);
                case SECONDS -> Durations.seconds(text);
                default -> Double.valueOf(text);
            };
        } catch (IllegalArgumentException e) { // NumberFormatException included
            throw new ConfigException(r.flag(), "Input should be a valid " + (whole ? "integer" : "number")
                    + ", got '" + text + "'");
        }
    }

    /** The keys of the rows under {@code prefix} (a mapping such as {@code search}), in declaration order. */
    List<String> keysUnder(final String prefix) {
        return entries.stream().map(e -> e.row().path()).filter(p -> p.startsWith(prefix + "."))
                .map(p -> p.substring(prefix.length() + 1)).toList();
    }

    /**
     * Takes the keys of a config file's mapping {@code prefix} (one the options read themselves, such as
     * {@code search}) into the option fields no flag set: the command line wins over the file.
     *
     * @throws ConfigException naming {@code prefix.KEY} for an unknown key or a value of the wrong kind
     */
    void fill(final Object options, final JsonNode mapping, final String prefix) {
        fill(options, mapping, prefix, List.of());
    }

    /** {@link #fill}, accepting also {@code own}: the mapping's keys no option sets, which the caller reads. */
    void fill(final Object options, final JsonNode mapping, final String prefix, final List<String> own) {
        if (mapping == null || mapping.isMissingNode() || mapping.isNull()) {
            return;
        }
        final List<String> keys = new ArrayList<>(keysUnder(prefix));
        keys.addAll(own);
        if (!mapping.isObject()) {
            throw new ConfigException(prefix, "expected a mapping of " + keys);
        }
        mapping.fieldNames().forEachRemaining(k -> {
            if (!keys.contains(k)) {
                throw new ConfigException(prefix + "." + k, "unknown key" + Suggestions.didYouMean(k, keys)
                        + "; known keys: " + keys);
            }
        });
        for (final Entry e : entries) {
            final String path = e.row().path();
            final JsonNode v = path.startsWith(prefix + ".") ? mapping.get(path.substring(prefix.length() + 1)) : null;
            final Object given = e.value(options);
            if (v == null || v.isNull() || given != null && !(given instanceof List<?> l && l.isEmpty())) {
                continue;
            }
            e.set(options, yamlValue(e.row(), v));
        }
    }

    /**
     * The mapping {@code prefix} as a config file writes it: the set option fields of its rows (an empty list is
     * unset), in declaration order; {@link #fill} reads it back to the same fields.
     */
    com.fasterxml.jackson.databind.node.ObjectNode tree(final Object options, final String prefix) {
        final com.fasterxml.jackson.databind.node.ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (final Entry e : entries) {
            final String path = e.row().path();
            final Object value = e.value(options);
            if (!path.startsWith(prefix + ".") || value == null || value instanceof List<?> l && l.isEmpty()) {
                continue;
            }
            out.set(path.substring(prefix.length() + 1), VALUES.valueToTree(value));
        }
        return out;
    }

    /** A YAML value as the option field of {@code row}'s kind holds it. */
    private static Object yamlValue(final Row row, final JsonNode v) {
        final java.util.function.Function<String, ConfigException> wrong = expected ->
                new ConfigException(row.path(), "expected " + expected + ", got " + v);
        switch (row.kind()) {
            case STRINGS -> {
                if (!v.isArray() && !v.isValueNode()) {
                    throw wrong.apply("a list");
                }
                final List<String> out = new ArrayList<>();
                (v.isArray() ? v : JsonNodeFactory.instance.arrayNode().add(v)).forEach(x -> out.add(x.asText()));
                return out;
            }
            case STRING -> {
                if (!v.isValueNode()) {
                    throw wrong.apply("a text value");
                }
                return v.asText();
            }
            case BOOLEAN -> {
                if (!v.isBoolean()) {
                    throw wrong.apply("true or false");
                }
                return v.asBoolean();
            }
            case INTEGER, LONG -> {
                if (!v.isNumber() || !v.canConvertToExactIntegral()) {
                    throw wrong.apply(v.isNumber() ? "a whole number" : "a number");
                }
                return row.kind() == Kind.INTEGER ? (Object) v.asInt() : (Object) v.asLong();
            }
            default -> {
                if (!v.isNumber()) {
                    throw wrong.apply("a number");
                }
                return v.asDouble();
            }
        }
    }

    /**
     * The option as the help shows it: its description with " A comma list sweeps." when its {@link Yaml} line
     * sweeps, and " Default: X." when it has a default, unless the description already says so.
     */
    static OptionSpec describe(final OptionSpec o) {
        if (!(o.userObject() instanceof Field f) || f.getAnnotation(Yaml.class) == null) {
            return o;
        }
        final Yaml yaml = f.getAnnotation(Yaml.class);
        final String[] text = o.description();
        if (text.length == 0) {
            return o;
        }
        final String said = String.join(" ", text);
        String last = text[text.length - 1];
        if (yaml.sweeps() && !said.contains(SWEEPS)) {
            last += " " + SWEEPS;
        }
        if (!yaml.defaultValue().isEmpty() && !said.contains("Default:")) {
            last += " Default: " + yaml.defaultValue() + ".";
        }
        if (last.equals(text[text.length - 1])) {
            return o;
        }
        final String[] described = Arrays.copyOf(text, text.length);
        described[text.length - 1] = last;
        return OptionSpec.builder(o).description(described).build();
    }

    /** What the help says of a sweeping option. */
    private static final String SWEEPS = "A comma list sweeps.";

    /** The name errors and the overlay's flags use: the first long name. */
    private static String flag(final Option option) {
        return Arrays.stream(option.names()).filter(n -> n.startsWith("--")).findFirst().orElse(option.names()[0]);
    }

    private static Kind kind(final Field f, final Option option, final Yaml yaml) {
        if (yaml.sweeps()) {
            if (f.getType() != String.class || !yaml.value().startsWith("benchmark.")
                    || !List.of(Kind.INTEGER, Kind.LONG, Kind.NUMBER, Kind.SECONDS).contains(yaml.kind())) {
                throw new IllegalStateException(f + ": a sweeping option is a String field (the comma list) of a "
                        + "benchmark. key, with the kind of its values (INTEGER, LONG, NUMBER or SECONDS)");
            }
            return yaml.kind();
        }
        if (yaml.kind() != Kind.STRING) {
            throw new IllegalStateException(f + ": only a sweeping option names its kind; this one's is its type");
        }
        final Class<?> t = f.getType();
        if (t == Boolean.class) {
            return Kind.BOOLEAN;
        }
        if (t == Integer.class) {
            return Kind.INTEGER;
        }
        if (t == Long.class) {
            return Kind.LONG;
        }
        if (t == Double.class) {
            return Arrays.asList(option.converter()).contains(DurationConverter.class) ? Kind.SECONDS : Kind.NUMBER;
        }
        if (t == String.class || t == java.nio.file.Path.class) {
            return Kind.STRING;
        }
        if (t == List.class) {
            return Kind.STRINGS;
        }
        throw new IllegalStateException(f + ": no YAML kind for " + t.getSimpleName());
    }
}
