package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the merged canonical tree into a validated {@link BenchmarkConfig}, writing defaults into its own copy of
 * the tree, which becomes the config's effective {@link ConfigDocument}; the tree it is given stays as it was. Every problem is a {@link ConfigException} naming the field (and the CLI flag when it came from one).
 * It binds the envelope and says in which order the sections are bound; each section has its binder
 * ({@link EndpointBinder}, {@link DatasetBinder}, {@link PhaseBinder}, {@link ArtifactsBinder}, {@link RuntimeBinder},
 * {@link MultiRunBinder}). The {@code *_KEYS} lists of the binders are the keys each binds by hand; a mapping also
 * accepts the option table's keys ({@link DeclaredOptions}), and a CLI option's default is the table's
 * ({@code Section.defaulted*}).
 */
public final class ConfigBinder {
    /**
     * Record metrics an SLO may name, with whether larger is better: the goodput tags of the metric catalogue
     * ({@code metrics.MetricRegistry}; config depends on no engine package, so a test keeps the two equal).
     */
    public static final Map<String, Boolean> SLO_LARGER_IS_BETTER = Map.ofEntries(
            Map.entry("request_latency", false), Map.entry("time_to_first_token", false),
            Map.entry("time_to_second_token", false), Map.entry("time_to_first_output_token", false),
            Map.entry("inter_token_latency", false), Map.entry("decode_duration", false),
            Map.entry("output_token_throughput_per_user", true), Map.entry("prefill_throughput_per_user", true),
            Map.entry("e2e_output_token_throughput", true), Map.entry("input_sequence_length", true),
            Map.entry("output_sequence_length", true));

    /** The reason given when no model is named (the CLI then asks the server, see src-docs/cli.md). */
    public static final String NO_MODEL = "at least one model name is required (-m/--model)";

    static final List<String> BENCHMARK_KEYS = List.of("models", "endpoint", "dataset", "phases", "artifacts",
            "tokenizer", "slos", "runtime");
    private final Map<String, String> cliFlags;
    private final DeclaredOptions declared;
    private final ConfigInputs inputs;
    private final List<String> warnings = new ArrayList<>();

    private ConfigBinder(final Map<String, String> cliFlags, final DeclaredOptions declared,
                         final ConfigInputs inputs) {
        this.cliFlags = cliFlags;
        this.declared = declared;
        this.inputs = inputs;
    }

    /**
     * @param tree the canonical merged envelope (not changed: the defaults are filled into a copy)
     * @param cliFlags canonical path to the CLI flag that set it, for error messages
     * @param inputs the environment and the files the config names
     */
    public static BenchmarkConfig bind(final ObjectNode tree, final Map<String, String> cliFlags,
                                       final ConfigInputs inputs) {
        return bind(tree, cliFlags, DeclaredOptions.installed(), inputs);
    }

    /** As {@link #bind(ObjectNode, Map, ConfigInputs)} with another option table than the CLI's (tests). */
    public static BenchmarkConfig bind(final ObjectNode tree, final Map<String, String> cliFlags,
                                       final DeclaredOptions declared, final ConfigInputs inputs) {
        // the section binders write the defaults into the tree they bind: a copy, as a caller may bind its tree again
        return new ConfigBinder(cliFlags, declared, inputs).bindEnvelope(tree.deepCopy());
    }

    /**
     * The sections in the order they are bound: the phases read what the endpoint and the dataset settled.
     *
     * @param tree the binder's own copy of the envelope, into which the section binders write the defaults
     */
    private BenchmarkConfig bindEnvelope(final ObjectNode tree) {
        final ConfigDocument given = ConfigDocument.of(tree);
        final Section env = new Section(tree, "", cliFlags, declared);
        env.allowOnly(ConfigShapes.ENVELOPE_KEYS);
        final Long seed = env.longValue("random_seed");
        if (seed != null && seed < 0) {
            throw env.error("random_seed", "Input should be greater than or equal to 0");
        }
        final Section b = env.section("benchmark");
        b.allowOnly(BENCHMARK_KEYS);
        final List<String> models = models(b);
        final EndpointConfig endpoint = new EndpointBinder(warnings, inputs).bind(b.section("endpoint"));
        final DatasetBinder datasets = new DatasetBinder(inputs);
        final DatasetConfig dataset = datasets.bind(b.section("dataset"), b.raw("phases"));
        endpointTakesDataset(endpoint, dataset, datasets.multiTurn());
        final List<PhaseConfig> phases = new PhaseBinder(cliFlags, declared, warnings, datasets, endpoint.streaming())
                .bind(b);
        final ArtifactsConfig artifacts = new ArtifactsBinder(warnings).bind(b.section("artifacts"));
        final TokenizerConfig tokenizer = tokenizer(b.section("tokenizer"));
        final Map<String, Double> slos = slos(b.section("slos"));
        final RuntimeBinder.Runtime runtime = RuntimeBinder.bind(b.section("runtime"));
        final MultiRunConfig multiRun = MultiRunBinder.bind(env.section("multi_run"), !env.bool("no_sweep_table", false));
        final Long effectiveSeed = seed == null && multiRun.numRuns() > 1 && multiRun.setConsistentSeed() ? Long.valueOf(42) : seed;
        final BenchmarkConfig config = new BenchmarkConfig(List.copyOf(models), endpoint, dataset, phases, artifacts,
                tokenizer, slos, effectiveSeed, runtime.ui(), multiRun,
                List.copyOf(warnings), ConfigDocument.of(tree), given, List.of(), runtime.limits(), runtime.shard());
        config.forShard(); // a load too small to split among the shards is a usage error now, not mid-run
        return config;
    }

    private static List<String> models(final Section b) {
        final List<String> models = b.stringList("models");
        if (models.isEmpty() || models.stream().anyMatch(String::isBlank)) {
            throw b.error("models", NO_MODEL);
        }
        final ArrayNode modelNode = b.node().putArray("models");
        models.forEach(modelNode::add);
        return models;
    }

    /** A raw endpoint sends a raw_payload file's rows; a multi-turn dataset needs an endpoint with conversations. */
    private static void endpointTakesDataset(final EndpointConfig endpoint, final DatasetConfig dataset,
                                             final boolean multiTurn) {
        final boolean rawRows = dataset.file() != null && dataset.file().format() == DatasetConfig.Format.RAW_PAYLOAD;
        if (endpoint.type() == EndpointType.RAW && !rawRows) {
            throw new ConfigException("benchmark.endpoint.type", "--endpoint-type raw sends the rows of a "
                    + "raw_payload file as they are: give --input-file FILE (rows with a messages list) or "
                    + "--custom-dataset-type raw_payload");
        }
        if (multiTurn && !endpoint.type().conversational()) {
            throw new ConfigException("benchmark.dataset", "an " + endpoint.type().wireName() + " endpoint has no "
                    + "conversation: multi-turn datasets need an endpoint that generates text (chat, completions, "
                    + "responses, ...)");
        }
    }

    private static TokenizerConfig tokenizer(final Section tok) {
        tok.allowOnly(List.of("name", "revision", "trust_remote_code", "apply_chat_template"));
        return new TokenizerConfig(tok.string("name", null), tok.defaultedString("revision"),
                tok.bool("trust_remote_code", false), tok.bool("apply_chat_template", false));
    }

    private static Map<String, Double> slos(final Section s) {
        final Map<String, Double> out = new LinkedHashMap<>();
        final Iterator<Map.Entry<String, JsonNode>> it = s.node().properties().iterator();
        while (it.hasNext()) {
            final Map.Entry<String, JsonNode> e = it.next();
            final String tag = MetricAliases.resolve(e.getKey());
            if (!SLO_LARGER_IS_BETTER.containsKey(tag)) {
                throw s.error(e.getKey(), "unknown goodput metric" + Suggestions.didYouMean(e.getKey(),
                        SLO_LARGER_IS_BETTER.keySet()) + "; valid: " + new java.util.TreeSet<>(SLO_LARGER_IS_BETTER.keySet()));
            }
            if (!e.getValue().isNumber()) {
                throw s.error(e.getKey(), "expected a number in the metric's display unit");
            }
            out.put(tag, e.getValue().doubleValue());
        }
        return out;
    }
}
