package io.aiperf.engine.cli;

import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.DeclaredOptions;
import io.aiperf.engine.config.DeclaredOptions.Kind;
import io.aiperf.engine.config.DeclaredOptions.Row;
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
            Object value = options;
            try {
                for (final Field f : fields) {
                    value = value == null ? null : f.get(value);
                }
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
            return value;
        }
    }

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
            entries.add(new Entry(List.copyOf(path), new Row(yaml.value(), flag(option), kind(f, option),
                    yaml.defaultValue().isEmpty() ? null : yaml.defaultValue())));
        }
    }

    List<Row> rows() {
        return entries.stream().map(Entry::row).toList();
    }

    /** Sets the key of every row whose flag was given. */
    void overlay(final Object options, final CliOverlay o) {
        for (final Entry e : entries) {
            final Row r = e.row();
            final Object value = e.value(options);
            if (value == null) {
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
     * The option as the help shows it: its description with " Default: X." when its {@link Yaml} line has a
     * default its description does not already state.
     */
    static OptionSpec describe(final OptionSpec o) {
        if (!(o.userObject() instanceof Field f) || f.getAnnotation(Yaml.class) == null) {
            return o;
        }
        final String value = f.getAnnotation(Yaml.class).defaultValue();
        final String[] text = o.description();
        if (value.isEmpty() || text.length == 0 || String.join(" ", text).contains("Default:")) {
            return o;
        }
        final String[] described = Arrays.copyOf(text, text.length);
        described[text.length - 1] = text[text.length - 1] + " Default: " + value + ".";
        return OptionSpec.builder(o).description(described).build();
    }

    /** The name errors and the overlay's flags use: the first long name. */
    private static String flag(final Option option) {
        return Arrays.stream(option.names()).filter(n -> n.startsWith("--")).findFirst().orElse(option.names()[0]);
    }

    private static Kind kind(final Field f, final Option option) {
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
