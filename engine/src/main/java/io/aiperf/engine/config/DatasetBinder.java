package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;

/**
 * Binds {@code benchmark.dataset}: synthetic prompts, an input file or a public dataset. What the phases need to know
 * of it (a trace's rows and timestamps, multi-turn conversations, a sampling order) is kept for {@link PhaseBinder}.
 */
final class DatasetBinder {
    static final List<String> DATASET_KEYS = List.of("name", "type", "entries", "random_seed", "prompts", "path",
            "format", "block_size", "public_dataset", "sampling", "turns", "turn_delay", "ignore_trace_delays", "media_roots",
            "turn_delay_cap", "rankings", "synthesis", "images", "audio");
    static final List<String> PROMPT_KEYS = List.of("isl", "osl", "batch_size", "prefix_prompts",
            "shared_system_prompt_length", "sequence_distribution", "user_context_prompt_length", "system_prompt",
            "system_prompt_file");
    static final List<String> TURN_DELAY_KEYS = List.of("mean", "stddev", "ratio");
    static final List<String> PREFIX_KEYS = List.of("pool_size", "length");
    static final List<String> DIST_KEYS = List.of("mean", "stddev");
    private final ConfigInputs inputs;
    private DatasetConfig.InputFile fileDataset; // read by the phases: a trace sets their timing and count
    private boolean fileIsDirectory; // the input file is a directory (a conversation or a pool per file)
    private String samplingTrace; // the sampling field, when one is set for a timestamped trace
    private boolean multiTurn; // some conversation may have more than one turn

    DatasetBinder(final ConfigInputs inputs) {
        this.inputs = inputs;
    }

    DatasetConfig bind(final Section d, final JsonNode phases) {
        d.allowOnly(DATASET_KEYS);
        final String type = d.string("type", d.has("public_dataset") ? "public" : d.has("path") ? "file" : "synthetic");
        if (!List.of("synthetic", "file", "public").contains(type)) {
            throw d.error("type", "expected synthetic, file or public, got '" + type + "'");
        }
        DatasetConfig.InputFile file = null;
        DatasetConfig.PublicDataset publicDataset = null;
        if (type.equals("file")) {
            file = inputFile(d);
            fileDataset = file;
        } else if (type.equals("public")) {
            publicDataset = publicDataset(d);
        } else if (d.has("format") || d.has("path")) {
            throw d.error(d.has("format") ? "format" : "path", "only a file dataset has a path and a format");
        }
        final DatasetConfig.Sampling sampling = sampling(d);
        d.string("name", "default");
        final int entries = entries(d, type, phases);
        final Section prompts = d.section("prompts");
        prompts.allowOnly(PROMPT_KEYS);
        final Integer batch = prompts.integer("batch_size", 1);
        if (batch != 1) {
            throw prompts.error("batch_size", "only a batch size of 1 is supported");
        }
        final Section isl = prompts.section("isl");
        isl.allowOnly(DIST_KEYS);
        final double islMean = isl.number("mean", 550.0);
        final double islStd = isl.defaultedNumber("stddev");
        if (!(islMean >= 1)) {
            throw isl.error("mean", "Input should be greater than or equal to 1");
        }
        if (!(islStd >= 0)) {
            throw isl.error("stddev", "Input should be greater than or equal to 0");
        }
        Double oslMean = null;
        double oslStd = 0;
        if (prompts.has("osl")) {
            final Section osl = prompts.section("osl");
            osl.allowOnly(DIST_KEYS);
            oslMean = osl.number("mean", null);
            oslStd = osl.defaultedNumber("stddev");
            if (oslMean == null || !(oslMean >= 1)) {
                throw osl.error("mean", "Input should be greater than or equal to 1");
            }
            if (!(oslStd >= 0)) {
                throw osl.error("stddev", "Input should be greater than or equal to 0");
            }
        } else if (prompts.node().has("osl")) {
            prompts.node().remove("osl");
        }
        if (d.has("random_seed")) {
            d.longValue("random_seed");
        }
        final SequenceDistribution sequences = sequences(prompts);
        final DatasetConfig.Turns turns = turns(d);
        final DatasetConfig.Prefixes prefixes = prefixes(prompts);
        final boolean synthetic = type.equals("synthetic");
        multiTurn = turns.multiTurn() || (file != null && (file.format() == DatasetConfig.Format.MULTI_TURN
                || (fileIsDirectory && file.format() == DatasetConfig.Format.RAW_PAYLOAD)));
        if (!synthetic && (turns.multiTurn() || prefixes != DatasetConfig.Prefixes.NONE || sequences != null)) {
            throw d.error(turns.multiTurn() ? "turns" : "prompts",
                    "--session-turns-*, prefix prompts, --shared-system-prompt-length and --seq-dist shape "
                    + "synthetic prompts; a " + type + " dataset brings its own");
        }
        final Double cap = d.seconds("turn_delay_cap");
        if (cap != null && !(cap >= 0)) {
            throw d.error("turn_delay_cap", "Input should be greater than or equal to 0");
        }
        final String system = systemPrompt(prompts, prefixes);
        if (system != null && file != null && file.format() == DatasetConfig.Format.RAW_PAYLOAD) {
            throw prompts.error(prompts.has("system_prompt") ? "system_prompt" : "system_prompt_file",
                    "a raw_payload row is sent as it is: put the system message in the rows");
        }
        return new DatasetConfig(entries, islMean, islStd, oslMean, oslStd, file, publicDataset, turns, prefixes,
                sequences, sampling, cap == null ? null : Math.round(cap * 1000), rankings(d),
                SyntheticMediaBinder.bind(d, inputs), system);
    }

    /** A file dataset: its path, its format (detected unless given), and each row's timestamp. */
    private DatasetConfig.InputFile inputFile(final Section d) {
        final String path = d.string("path", null);
        if (path == null) {
            throw d.error("path", "a file dataset needs a path (--input-file)");
        }
        final JsonNode givenFormat = d.raw("format");
        final String formatText = d.string("format", givenFormat != null && !givenFormat.isNull() ? null
                : inputs.detectFormat(path, d.field("path")).wireName());
        final DatasetConfig.Format format;
        try {
            format = DatasetConfig.Format.valueOf(formatText.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw d.error("format", "unknown dataset format '" + formatText + "'; supported: single_turn, "
                    + "multi_turn, random_pool, mooncake_trace, raw_payload");
        }
        fileIsDirectory = inputs.isDirectory(path);
        if (fileIsDirectory && format != DatasetConfig.Format.RAW_PAYLOAD
                && format != DatasetConfig.Format.RANDOM_POOL) {
            throw d.error("path", path + " is a directory: only raw_payload (a conversation per file) and "
                    + "random_pool (a pool per file) read one, not " + format.wireName());
        }
        final int blockSize = d.defaultedInteger("block_size");
        if (blockSize < 1) {
            throw d.error("block_size", "Input should be greater than or equal to 1");
        }
        final DatasetConfig.Synthesis synthesis = synthesis(d, format);
        return new DatasetConfig.InputFile(path, format, blockSize,
                inputs.timestamps(path, d.field("path"), format, synthesis), d.bool("ignore_trace_delays", false),
                d.has("media_roots") ? d.stringList("media_roots") : List.of(), synthesis);
    }

    private DatasetConfig.PublicDataset publicDataset(final Section d) {
        final String name = d.string("public_dataset", null);
        if (name == null || !name.equalsIgnoreCase("sharegpt")) {
            throw d.error("public_dataset", name == null ? "a public dataset needs a name (--public-dataset)"
                    : "unknown public dataset '" + name + "'; supported: sharegpt");
        }
        return new DatasetConfig.PublicDataset("sharegpt",
                inputs.publicDataset(d.string("path", null), d.field("public_dataset")));
    }

    private DatasetConfig.Sampling sampling(final Section d) {
        final String samplingText = d.string("sampling", null);
        DatasetConfig.Sampling sampling = null;
        if (samplingText != null) {
            try {
                sampling = DatasetConfig.Sampling.valueOf(samplingText.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw d.error("sampling", "expected sequential, random or shuffle, got '" + samplingText + "'");
            }
            if (fileDataset != null && fileDataset.timestamped() && sampling != DatasetConfig.Sampling.SEQUENTIAL) {
                samplingTrace = d.field("sampling"); // sequential is a replay's own order (upstream's trace template)
            }
        }
        return sampling;
    }

    private static int entries(final Section d, final String type, final JsonNode phases) {
        // Upstream 0.13: a synthetic dataset not sized on purpose has as many entries as the profiling phase has
        // sessions (--conversation-num), else requests (--request-count), else 100.
        final Integer fromLoad = type.equals("synthetic") && !d.has("entries") ? entriesFromLoad(phases) : null;
        if (fromLoad != null) {
            d.node().put("entries", fromLoad); // what config expand prints
        }
        final int entries = fromLoad != null ? fromLoad : d.defaultedInteger("entries");
        if (entries < 1) {
            throw d.error("entries", "Input should be greater than or equal to 1");
        }
        return entries;
    }

    /** The input file of a file dataset, or null: a trace's rows set the phases' timing and count. */
    DatasetConfig.InputFile fileDataset() {
        return fileDataset;
    }

    /** The sampling field, when a sampling other than sequential is set for a timestamped trace; else null. */
    String samplingTrace() {
        return samplingTrace;
    }

    /** Whether the input file is a directory: raw_payload conversations or random_pool pools, one per file. */
    boolean fileIsDirectory() {
        return fileIsDirectory;
    }

    /** Whether some conversation may have more than one turn. */
    boolean multiTurn() {
        return multiTurn;
    }

    /** The profiling phase's {@code sessions}, else its {@code requests}, when a whole number above 0; else null. */
    private static Integer entriesFromLoad(final JsonNode phases) {
        JsonNode profiling = null;
        if (phases != null && phases.isObject()) {
            // keyed by phase name, or one phase's fields themselves (the single-phase shorthand)
            profiling = phases.has("profiling") ? phases.get("profiling")
                    : phases.has("requests") || phases.has("sessions") ? phases : null;
        } else if (phases != null && phases.isArray()) {
            for (final JsonNode p : phases) {
                if ("profiling".equals(p.path("kind").asText(null)) || "profiling".equals(p.path("name").asText(null))) {
                    profiling = p;
                    break;
                }
            }
        }
        if (profiling == null || !profiling.isObject()) {
            return null;
        }
        for (final String key : new String[] {"sessions", "requests"}) {
            final JsonNode v = profiling.get(key);
            if (v != null && v.canConvertToInt() && v.isIntegralNumber() && v.asInt() > 0) {
                return v.asInt();
            }
        }
        return null;
    }

    /** The verbatim system prompt ({@code --system-prompt}, or the file of {@code --system-prompt-file}), or null. */
    private String systemPrompt(final Section prompts, final DatasetConfig.Prefixes prefixes) {
        final String text = prompts.string("system_prompt", null);
        final String file = prompts.string("system_prompt_file", null);
        if (text == null && file == null) {
            return null;
        }
        final String key = text != null ? "system_prompt" : "system_prompt_file";
        if (text != null && file != null) {
            throw prompts.error("system_prompt", "--system-prompt and --system-prompt-file are mutually exclusive; "
                    + "give one");
        }
        if (prefixes.sharedSystemLength() > 0 || prefixes.poolSize() > 0) {
            throw prompts.error(key, "a verbatim system prompt and --shared-system-prompt-length or prefix prompts "
                    + "fill the same place; give one of them");
        }
        String value = text;
        if (file != null) {
            try {
                value = inputs.readString(file);
            } catch (java.io.IOException | java.nio.file.InvalidPathException | java.io.UncheckedIOException e) {
                throw prompts.error(key, "cannot read " + file + " as UTF-8 text: " + e.getMessage());
            }
        }
        if (value.isBlank()) {
            throw prompts.error(key, (file != null ? file + " is" : "it is") + " empty or whitespace only; leave the "
                    + "option out to run without a system prompt");
        }
        return value;
    }

    private static DatasetConfig.Rankings rankings(final Section d) {
        final Section r = d.section("rankings");
        r.allowOnly(List.of("passages", "passage_tokens", "query_tokens"));
        final double[] v = new double[6];
        final String[] keys = {"passages", "passage_tokens", "query_tokens"};
        for (int i = 0; i < 3; i++) {
            final Section dist = r.section(keys[i]);
            dist.allowOnly(DIST_KEYS);
            v[2 * i] = dist.defaultedNumber("mean");
            v[2 * i + 1] = dist.defaultedNumber("stddev");
            if (!(v[2 * i] >= 1)) {
                throw dist.error("mean", "Input should be greater than or equal to 1");
            }
            if (!(v[2 * i + 1] >= 0)) {
                throw dist.error("stddev", "Input should be greater than or equal to 0");
            }
        }
        return new DatasetConfig.Rankings(v[0], v[1], v[2], v[3], v[4], v[5]);
    }

    /**
     * {@code dataset.synthesis} of upstream's trace-replay template: the speedup and the ISL/OSL limits are applied to
     * a mooncake trace; the length multipliers only at 1.0 (upstream's radix-tree synthesis is not implemented).
     */
    private static DatasetConfig.Synthesis synthesis(final Section d, final DatasetConfig.Format format) {
        if (!d.has("synthesis")) {
            return DatasetConfig.Synthesis.NONE;
        }
        final Section s = d.section("synthesis");
        s.allowOnly(List.of("speedup_ratio", "prefix_len_multiplier", "prefix_root_multiplier",
                "prompt_len_multiplier", "output_len_multiplier", "max_isl", "max_osl"));
        if (format != DatasetConfig.Format.MOONCAKE_TRACE) {
            throw d.error("synthesis", "trace synthesis applies to a mooncake_trace file, not " + format.wireName());
        }
        for (final String key : List.of("prefix_len_multiplier", "prefix_root_multiplier", "prompt_len_multiplier",
                "output_len_multiplier")) {
            final double v = s.number(key, 1.0);
            if (v != 1.0) {
                throw s.error(key, "trace synthesis (upstream's aiperf synthesize) is not implemented: only 1.0, "
                        + "the trace as recorded, is supported");
            }
        }
        final double speedup = s.number("speedup_ratio", 1.0);
        if (!(speedup > 0) || Double.isInfinite(speedup)) {
            throw s.error("speedup_ratio", "Input should be greater than 0");
        }
        final Integer maxIsl = s.has("max_isl") ? s.integer("max_isl", 1) : null;
        final Integer maxOsl = s.has("max_osl") ? s.integer("max_osl", 1) : null;
        if ((maxIsl != null && maxIsl < 1) || (maxOsl != null && maxOsl < 1)) {
            throw s.error(maxIsl != null && maxIsl < 1 ? "max_isl" : "max_osl", "Input should be greater than or "
                    + "equal to 1");
        }
        return new DatasetConfig.Synthesis(speedup, maxIsl, maxOsl);
    }

    private static DatasetConfig.Turns turns(final Section d) {
        final Section t = d.section("turns");
        t.allowOnly(DIST_KEYS);
        final double mean = t.defaultedNumber("mean");
        final double stddev = t.defaultedNumber("stddev");
        if (!(mean >= 1)) {
            throw t.error("mean", "Input should be greater than or equal to 1");
        }
        if (!(stddev >= 0)) {
            throw t.error("stddev", "Input should be greater than or equal to 0");
        }
        final Section delay = d.section("turn_delay");
        delay.allowOnly(TURN_DELAY_KEYS);
        final double delayMean = delay.defaultedNumber("mean");
        final double delayStd = delay.defaultedNumber("stddev");
        final double ratio = delay.defaultedNumber("ratio");
        for (final String key : TURN_DELAY_KEYS) {
            final double v = key.equals("mean") ? delayMean : key.equals("stddev") ? delayStd : ratio;
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw delay.error(key, "Input should be greater than or equal to 0");
            }
        }
        if (mean == 1 && stddev == 0) {
            return DatasetConfig.Turns.SINGLE;
        }
        return new DatasetConfig.Turns(mean, stddev, delayMean, delayStd, ratio);
    }

    private static DatasetConfig.Prefixes prefixes(final Section prompts) {
        final Section pool = prompts.section("prefix_prompts");
        pool.allowOnly(PREFIX_KEYS);
        final int size = pool.integer("pool_size", 0);
        final int length = pool.integer("length", 0);
        final int system = prompts.integer("shared_system_prompt_length", 0);
        final int context = prompts.integer("user_context_prompt_length", 0);
        if (context < 0) {
            throw prompts.error("user_context_prompt_length", "Input should be greater than or equal to 0");
        }
        if (context > 0 && size > 0) {
            throw prompts.error("user_context_prompt_length", "--user-context-prompt-length and prefix prompts fill "
                    + "the same place; give one of them");
        }
        if (size < 0 || length < 0 || system < 0) {
            final String key = size < 0 ? "pool_size" : "length";
            throw system < 0 ? prompts.error("shared_system_prompt_length", "Input should be greater than or equal "
                    + "to 0") : pool.error(key, "Input should be greater than or equal to 0");
        }
        if ((size > 0) != (length > 0)) {
            throw pool.error(size > 0 ? "length" : "pool_size", "--num-prefix-prompts and --prefix-prompt-length "
                    + "go together: the prefix prompts pool is empty without both");
        }
        if (size > 0 && system > 0) {
            throw prompts.error("shared_system_prompt_length", "--shared-system-prompt-length and prefix prompts "
                    + "fill the same place; give one of them");
        }
        return size == 0 && system == 0 && context == 0 ? DatasetConfig.Prefixes.NONE
                : new DatasetConfig.Prefixes(size, length, system, context);
    }

    /** {@code sequence_distribution}: the {@code --seq-dist} text, or upstream's YAML list of entries. */
    private static SequenceDistribution sequences(final Section prompts) {
        final JsonNode raw = prompts.raw("sequence_distribution");
        if (raw == null || raw.isNull()) {
            return null;
        }
        if (raw.isArray()) {
            return SequenceDistribution.fromEntries(raw, prompts.field("sequence_distribution"));
        }
        return SequenceDistribution.parse(prompts.string("sequence_distribution", null));
    }
}
