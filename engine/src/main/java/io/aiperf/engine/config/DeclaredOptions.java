package io.aiperf.engine.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The option table as the config binder sees it: each CLI option's canonical YAML key, kind and default. The CLI
 * declares the options (its picocli fields, each with one {@code @Yaml} line) and hands them in as a {@link Source}
 * found by {@link ServiceLoader}: config depends on no CLI class, yet the binder's extra keys and its defaults come
 * from that one declaration. A key the binder does not bind by hand is accepted, type-checked by its kind and
 * filled with its default in the effective tree, so a new option needs no binder edit.
 */
public final class DeclaredOptions {
    /** What a YAML value must be, from the option's Java type. */
    public enum Kind { BOOLEAN, INTEGER, LONG, NUMBER, SECONDS, STRING, STRINGS }

    /**
     * One declared option.
     *
     * @param path the canonical key from the envelope's root, e.g. {@code benchmark.endpoint.streaming},
     *             {@code benchmark.phases.profiling.users}, {@code multi_run.num_runs}
     * @param flag the option's main long name, as errors name it
     * @param kind what the YAML value must be
     * @param defaultValue the default as YAML text, or null for none
     * @param sweeps whether the option is a sweep axis: its flag takes a comma list, and {@code sweep.parameters}
     *               names it by its key alone
     */
    public record Row(String path, String flag, Kind kind, String defaultValue, boolean sweeps) {
        /** A row that does not sweep. */
        public Row(final String path, final String flag, final Kind kind, final String defaultValue) {
            this(path, flag, kind, defaultValue, false);
        }

        /** The key's last segment. */
        public String key() {
            return path.substring(path.lastIndexOf('.') + 1);
        }

        /** The mapping that holds the key: {@code benchmark.endpoint}; every phase's is {@code benchmark.phases}. */
        String section() {
            final String parent = path.substring(0, path.lastIndexOf('.'));
            return parent.startsWith("benchmark.phases.") ? "benchmark.phases" : parent;
        }
    }

    /** The CLI's declaration, registered in META-INF/services. */
    public interface Source {
        List<Row> rows();
    }

    private static final class Installed {
        static final DeclaredOptions TABLE = load();

        private static DeclaredOptions load() {
            final List<Row> rows = new ArrayList<>();
            ServiceLoader.load(Source.class, DeclaredOptions.class.getClassLoader()).forEach(s -> rows.addAll(s.rows()));
            return new DeclaredOptions(rows);
        }
    }

    private final Map<String, Row> byPath = new LinkedHashMap<>();

    public DeclaredOptions(final List<Row> rows) {
        for (final Row r : rows) {
            final Row before = byPath.putIfAbsent(r.path(), r);
            if (before != null && (before.kind() != r.kind() || before.sweeps() != r.sweeps()
                    || !java.util.Objects.equals(before.defaultValue(), r.defaultValue()))) {
                throw new IllegalStateException(r.path() + " is declared by " + before.flag() + " and " + r.flag()
                        + " with different kinds, defaults or sweeps");
            }
        }
        final Map<String, String> axes = new LinkedHashMap<>();
        for (final Row r : byPath.values()) {
            final String before = r.sweeps() ? axes.putIfAbsent(r.key(), r.path()) : null;
            if (before != null && !before.equals(r.path())) {
                throw new IllegalStateException("the sweep axis " + r.key() + " is both " + before + " and " + r.path());
            }
        }
    }

    /** This table with {@code more} rows (options a command adds to the declared ones). */
    public DeclaredOptions with(final List<Row> more) {
        final List<Row> all = new ArrayList<>(byPath.values());
        all.addAll(more);
        return new DeclaredOptions(all);
    }

    /**
     * The path inside {@code benchmark} of the sweeping option whose key is {@code key} ({@code concurrency} is
     * {@code phases.profiling.concurrency}), or null when no sweeping option has that key.
     */
    public String sweepAxis(final String key) {
        for (final Row r : byPath.values()) {
            if (r.sweeps() && r.key().equals(key) && r.path().startsWith("benchmark.")) {
                return r.path().substring("benchmark.".length());
            }
        }
        return null;
    }

    /** The table the CLI declares (empty when no CLI is on the class path). */
    public static DeclaredOptions installed() {
        return Installed.TABLE;
    }

    public List<Row> rows() {
        return List.copyOf(byPath.values());
    }

    /** The declared keys of one mapping ({@code benchmark.phases} for any phase), in declaration order. */
    public List<String> keysOf(final String section) {
        return byPath.values().stream().filter(r -> r.section().equals(section)).map(Row::key).distinct().toList();
    }

    /** {@code hand} (the keys a binder method binds itself, in their order) followed by the other declared keys. */
    List<String> allowed(final String section, final List<String> hand) {
        final List<String> all = new ArrayList<>(hand);
        keysOf(section).stream().filter(k -> !all.contains(k)).forEach(all::add);
        return all;
    }

    /** The declared default of {@code path}, as YAML text. */
    String defaultText(final String path) {
        final Row r = byPath.get(path);
        if (r == null || r.defaultValue() == null) {
            throw new IllegalStateException("no option declares a default for " + path);
        }
        return r.defaultValue();
    }

    boolean bool(final String path) {
        return Boolean.parseBoolean(defaultText(path));
    }

    int integer(final String path) {
        return Integer.parseInt(defaultText(path));
    }

    double number(final String path) {
        return Double.parseDouble(defaultText(path));
    }

    /**
     * Binds the declared keys of {@code s} that {@code hand} does not: a present value must have the row's kind, an
     * absent one gets the row's default (left out when it has none).
     */
    void bindRest(final Section s, final String section, final List<String> hand) {
        for (final Row r : byPath.values()) {
            if (!r.section().equals(section) || hand.contains(r.key())) {
                continue;
            }
            final String key = r.key();
            final String d = r.defaultValue();
            switch (r.kind()) {
                case BOOLEAN -> {
                    if (s.has(key) || d != null) {
                        s.bool(key, Boolean.parseBoolean(d));
                    }
                }
                case INTEGER -> s.integer(key, d == null ? null : Integer.valueOf(d));
                case LONG -> {
                    if (s.longValue(key) == null && d != null) {
                        s.node().put(key, Long.parseLong(d));
                    }
                }
                case NUMBER -> s.number(key, d == null ? null : Double.valueOf(d));
                case SECONDS -> {
                    if (s.seconds(key) == null && d != null) {
                        s.node().put(key, Durations.seconds(d));
                    }
                }
                case STRING -> s.string(key, d);
                case STRINGS -> s.stringList(key);
            }
        }
    }
}
