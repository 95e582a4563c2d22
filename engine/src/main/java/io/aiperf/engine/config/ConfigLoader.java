package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The one entry point from inputs to a validated config: defaults &lt; YAML &lt; explicitly typed CLI values.
 */
public final class ConfigLoader {
    private static final List<String> INHERITED_BY_WARMUP = List.of("type", "concurrency", "rate", "smoothness",
            "concurrency_ramp_duration", "rate_ramp_duration", "prefill_concurrency", "users",
            "prefill_concurrency_ramp_duration");
    private static final List<String> RATE_SETTINGS = List.of("rate", "smoothness", "rate_ramp_duration");

    private ConfigLoader() {
    }

    /**
     * @param yamlFile the {@code -f} file, or null
     * @param cliOverlay canonical tree of the typed CLI values ({@link CliOverlay} builds it)
     * @param env environment for {@code ${VAR}} substitution, and for the binders (the proxy variables, the dataset
     *            cache)
     */
    public static BenchmarkConfig load(final Path yamlFile, final CliOverlay cliOverlay, final Map<String, String> env) {
        return merge(read(yamlFile, env), cliOverlay, ConfigInputs.of(env));
    }

    /**
     * The {@code -f} file in the canonical shape (an empty envelope without one), for {@link #bind}: a run that
     * binds several configs from one file reads it once.
     */
    public static ObjectNode read(final Path yamlFile, final Map<String, String> env) {
        return yamlFile == null ? emptyEnvelope() : ConfigShapes.canonical(YamlLoader.load(yamlFile, env));
    }

    /**
     * The {@code -f} file as {@link YamlLoader#load} read it (null without one), in the canonical shape, as
     * {@link #read} gives it: a command that looked into the file first does not read it again. The tree given
     * stays as it was.
     */
    public static ObjectNode canonical(final ObjectNode loaded) {
        return loaded == null ? emptyEnvelope() : ConfigShapes.canonical(loaded.deepCopy());
    }

    /**
     * Same as {@link #load} for a file {@link #read} already, with the process's environment; the tree read stays as
     * it was.
     */
    public static BenchmarkConfig bind(final ObjectNode read, final CliOverlay cliOverlay) {
        return merge(read, cliOverlay, ConfigInputs.ofProcess());
    }

    /** Same as {@link #load} for YAML text already in memory (tests, {@code config validate -}). */
    public static BenchmarkConfig fromYaml(final String yaml, final CliOverlay cliOverlay) {
        final Map<String, String> env = System.getenv();
        return merge(ConfigShapes.canonical(YamlLoader.parse(yaml, "<yaml>", env)), cliOverlay, ConfigInputs.of(env));
    }

    /** Merges and binds a copy of {@code read}: a file read once is bound for several configs. */
    private static BenchmarkConfig merge(final ObjectNode read, final CliOverlay cli, final ConfigInputs inputs) {
        final ObjectNode base = ConfigMerger.merge(read.deepCopy(), cli.tree());
        if (cli.addsWarmup()) {
            addProfilingAfterAWarmupAlone(base);
            inheritIntoWarmup(base);
        }
        base.remove("search"); // the capacity search's settings: aiperf profile reads them (src-docs/capacity.md)
        final JsonNode sweep = base.remove("sweep");
        if (sweep == null || sweep.isNull()) {
            return ConfigBinder.bind(base, cli.flags(), cli.declared(), inputs);
        }
        // Each point is bound (and validated) on its own; the first stands for the run as a whole.
        final java.util.List<Variation> variations = new java.util.ArrayList<>(
                SweepExpander.expand(base, sweep, cli.flags(), cli.declared(), inputs));
        final Variation first = variations.get(0);
        final ObjectNode tree = first.config().effective().copy();
        tree.set("sweep", sweep);
        // The first point's effective tree has always carried the sweep (its config hash with it); kept, by value.
        final ConfigDocument withSweep = ConfigDocument.of(tree);
        variations.set(0, new Variation(first.label(), first.index(), first.values(),
                first.config().withEffective(withSweep)));
        return first.config().withEffective(withSweep).withVariations(List.copyOf(variations));
    }

    private static ObjectNode emptyEnvelope() {
        final ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.putObject("benchmark");
        return root;
    }

    /**
     * Warmup flags alone ({@code --warmup-request-count 5}) warm up before the default profiling phase, as upstream's
     * command line does; only a file that names its phases says which profiling phase there is.
     */
    private static void addProfilingAfterAWarmupAlone(final ObjectNode root) {
        if (root.path("benchmark").path("phases") instanceof ArrayNode phases && phases.size() == 1
                && phases.get(0).path("name").asText().equals("warmup")
                && phases.get(0).path("kind").asText("warmup").equals("warmup")) {
            phases.addObject().put("name", "profiling");
        }
    }

    /** A CLI-created warmup phase inherits the profiling load settings it does not set (AIPerf's timing and load docs). */
    private static void inheritIntoWarmup(final ObjectNode root) {
        final JsonNode phases = root.path("benchmark").path("phases");
        ObjectNode warmup = null;
        ObjectNode profiling = null;
        for (final JsonNode p : phases) {
            final String kind = p.has("kind") ? p.get("kind").asText() : p.path("name").asText();
            if (kind.equals("warmup") && warmup == null) {
                warmup = (ObjectNode) p;
            } else if (kind.equals("profiling") && profiling == null) {
                profiling = (ObjectNode) p;
            }
        }
        if (warmup == null || profiling == null) {
            return;
        }
        // a warmup the file made closed-loop stays so: a rate phase's rate is no setting of it
        final boolean closedLoop = warmup.has("type") && isConcurrency(warmup.get("type").asText());
        for (final String key : INHERITED_BY_WARMUP) {
            if (closedLoop && RATE_SETTINGS.contains(key)) {
                continue;
            }
            if (!warmup.has(key) && profiling.has(key)) {
                warmup.set(key, profiling.get(key).deepCopy());
            }
        }
    }

    private static boolean isConcurrency(final String type) {
        try {
            return LoadType.parse("type", type) == LoadType.CONCURRENCY;
        } catch (ConfigException unknown) {
            return false; // the binder names the phase's field
        }
    }
}
