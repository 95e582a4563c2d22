package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites AIPerf's shorthand forms into one canonical tree (AIPerf's configuration docs): {@code model} to
 * {@code models}, {@code url} to {@code urls}, {@code datasets: [one]} to {@code dataset},
 * {@code dataset.isl} into {@code prompts.isl}, ISL/OSL numbers into {@code {mean, stddev}}, and phases in
 * mapping or envelope form into a named list. Unknown keys are left in place for the binder to reject.
 */
final class ConfigShapes {
    static final List<String> ENVELOPE_KEYS = List.of("schema_version", "benchmark", "random_seed", "multi_run",
            "sweep", "no_sweep_table", "search");
    private static final Set<String> CANONICAL_PHASES = Set.of("warmup", "profiling");

    private ConfigShapes() {
    }

    /**
     * Body sections upstream's templates also write at the top level, next to {@code benchmark:} (its minimal,
     * multi-turn and trace-replay templates put {@code model}, {@code dataset}, {@code warmup} and
     * {@code profiling} there).
     */
    static final List<String> ROOT_BODY_KEYS = List.of("model", "models", "endpoint", "dataset", "datasets",
            "phases", "warmup", "profiling", "artifacts", "tokenizer", "slos", "goodput", "runtime", "server_metrics",
            "gpu_telemetry");

    static ObjectNode canonical(final ObjectNode envelope) {
        hoistRootBody(envelope);
        new Section(envelope, "", Map.of()).allowOnly(ENVELOPE_KEYS);
        final JsonNode body = envelope.get("benchmark");
        if (body == null || body.isNull()) {
            throw new ConfigException("benchmark", "the config file needs a 'benchmark:' section");
        }
        if (!body.isObject()) {
            throw new ConfigException("benchmark", "expected a mapping, got " + Section.typeName(body));
        }
        final ObjectNode b = (ObjectNode) body;
        rename(b, "model", "models", "benchmark");
        if (b.has("models") && b.get("models").isObject()) {
            final JsonNode items = b.get("models").get("items");
            final ArrayNode names = JsonNodeFactory.instance.arrayNode();
            if (items != null && items.isArray()) {
                for (final JsonNode item : items) {
                    names.add(item.isObject() ? item.path("name").asText() : item.asText());
                }
            }
            b.set("models", names);
        }
        if (b.has("endpoint") && b.get("endpoint").isObject()) {
            rename((ObjectNode) b.get("endpoint"), "url", "urls", "benchmark.endpoint");
        }
        if (b.has("datasets")) {
            final JsonNode ds = b.remove("datasets");
            if (!ds.isArray() || ds.size() != 1) {
                throw new ConfigException("benchmark.datasets", "exactly one dataset is supported");
            }
            if (b.has("dataset")) {
                throw new ConfigException("benchmark.dataset", "give either 'dataset' or 'datasets', not both");
            }
            b.set("dataset", ds.get(0));
        }
        if (b.has("dataset") && b.get("dataset").isObject()) {
            shapeDataset((ObjectNode) b.get("dataset"));
        }
        if (b.get("artifacts") instanceof ObjectNode artifacts) {
            // upstream's trace: true embeds each request's HTTP trace in its record, as export_http_trace does here
            rename(artifacts, "trace", "export_http_trace", "benchmark.artifacts");
        }
        if (b.has("goodput") && !b.has("slos")) {
            b.set("slos", b.remove("goodput"));
        }
        if (b.has("tokenizer") && b.get("tokenizer").isTextual()) {
            final String name = b.get("tokenizer").textValue();
            b.putObject("tokenizer").put("name", name);
        }
        phaseEnvelope(b);
        if (b.has("phases")) {
            b.set("phases", phaseList(b.get("phases")));
        }
        for (final String key : List.of("server_metrics", "gpu_telemetry")) {
            if (b.has(key)) { // this engine keeps both beside the endpoint they are scraped from
                final ObjectNode endpoint = b.has("endpoint") && b.get("endpoint").isObject()
                        ? (ObjectNode) b.get("endpoint") : b.putObject("endpoint");
                if (endpoint.has(key)) {
                    throw new ConfigException("benchmark." + key, "given both here and under benchmark.endpoint");
                }
                endpoint.set(key, b.remove(key));
            }
        }
        return envelope;
    }

    /** Moves the body sections written at the top level into {@code benchmark}. */
    private static void hoistRootBody(final ObjectNode envelope) {
        for (final String key : ROOT_BODY_KEYS) {
            if (!envelope.has(key)) {
                continue;
            }
            final JsonNode existing = envelope.get("benchmark");
            final ObjectNode b = existing != null && existing.isObject() ? (ObjectNode) existing
                    : existing == null || existing.isNull() ? envelope.putObject("benchmark") : null;
            if (b == null) {
                return; // a benchmark that is not a mapping: reported below
            }
            if (b.has(key)) {
                throw new ConfigException(key, "given both at the top level and under benchmark; keep one");
            }
            b.set(key, envelope.remove(key));
        }
    }

    /** {@code warmup:} and {@code profiling:} in the body: the two-phase shorthand of upstream's templates. */
    private static void phaseEnvelope(final ObjectNode b) {
        if (!b.has("warmup") && !b.has("profiling")) {
            return;
        }
        if (b.has("phases")) {
            throw new ConfigException("benchmark." + (b.has("warmup") ? "warmup" : "profiling"), "cannot be used "
                    + "with 'phases': use warmup/profiling for a simple config or phases for several phases");
        }
        if (b.has("warmup") && !b.has("profiling")) {
            throw new ConfigException("benchmark.warmup", "'warmup' requires 'profiling': a warmup alone produces no "
                    + "results");
        }
        final ObjectNode phases = b.putObject("phases");
        for (final String name : List.of("warmup", "profiling")) {
            if (b.has(name)) {
                phases.set(name, b.remove(name));
            }
        }
    }

    private static void rename(final ObjectNode node, final String from, final String to, final String path) {
        if (node.has(from)) {
            if (node.has(to)) {
                throw new ConfigException(path + "." + from, "give either '" + from + "' or '" + to + "', not both");
            }
            node.set(to, node.remove(from));
        }
    }

    private static void shapeDataset(final ObjectNode ds) {
        // upstream's public dataset names its dataset in `dataset:` (public_dataset here)
        rename(ds, "dataset", "public_dataset", "benchmark.dataset");
        prefixPrompts(ds);
        media(ds);
        if (ds.has("turn_delay_ratio")) { // upstream's flat spelling of turn_delay.ratio
            final JsonNode delay = ds.get("turn_delay");
            final ObjectNode d = delay != null && delay.isObject() ? (ObjectNode) delay : ds.putObject("turn_delay");
            if (delay != null && delay.isNumber()) {
                d.set("mean", delay);
            }
            if (d.has("ratio")) {
                throw new ConfigException("benchmark.dataset.turn_delay_ratio", "give either turn_delay_ratio or "
                        + "turn_delay.ratio");
            }
            d.set("ratio", ds.remove("turn_delay_ratio"));
        }
        for (final String key : List.of("turns", "turn_delay")) {
            final JsonNode v = ds.get(key);
            if (v != null && v.isNumber()) {
                ds.putObject(key).set("mean", v);
            }
        }
        for (final String key : List.of("isl", "osl")) {
            if (ds.has(key)) {
                final ObjectNode prompts = ds.has("prompts") && ds.get("prompts").isObject()
                        ? (ObjectNode) ds.get("prompts") : ds.putObject("prompts");
                prompts.set(key, ds.remove(key));
            }
        }
        if (ds.has("prompts") && ds.get("prompts").isObject()) {
            final ObjectNode prompts = (ObjectNode) ds.get("prompts");
            for (final String key : List.of("isl", "osl")) {
                final JsonNode v = prompts.get(key);
                if (v != null && v.isNumber()) {
                    final ObjectNode dist = prompts.putObject(key);
                    dist.set("mean", v);
                    dist.put("stddev", 0);
                } else if (v != null && v.isObject() && v.has("type")) {
                    final String type = v.get("type").asText();
                    if (!type.equalsIgnoreCase("normal") && !type.equalsIgnoreCase("fixed")) {
                        throw new ConfigException("benchmark.dataset.prompts." + key + ".type",
                                "unsupported distribution '" + type + "'; expected normal or fixed");
                    }
                    ((ObjectNode) v).remove("type");
                }
            }
        }
    }

    /**
     * Upstream's {@code dataset.prefix_prompts}: {@code pool_size}/{@code length} are this engine's
     * {@code prompts.prefix_prompts}; {@code shared_system_length} and {@code user_context_length} its
     * {@code prompts.shared_system_prompt_length} and {@code prompts.user_context_prompt_length}.
     */
    private static void prefixPrompts(final ObjectNode ds) {
        final JsonNode given = ds.get("prefix_prompts");
        if (given == null || !given.isObject()) {
            return;
        }
        final ObjectNode p = (ObjectNode) ds.remove("prefix_prompts");
        final String path = "benchmark.dataset.prefix_prompts";
        new Section(p, path, Map.of()).allowOnly(List.of("pool_size", "length", "shared_system_length",
                "user_context_length"));
        if ((p.has("pool_size") || p.has("length")) && (p.has("shared_system_length") || p.has("user_context_length"))) {
            throw new ConfigException(path, "pool_size/length and shared_system_length/user_context_length are "
                    + "mutually exclusive");
        }
        final ObjectNode prompts = ds.has("prompts") && ds.get("prompts").isObject() ? (ObjectNode) ds.get("prompts")
                : ds.putObject("prompts");
        final String[][] moves = {{"shared_system_length", "shared_system_prompt_length"},
            {"user_context_length", "user_context_prompt_length"}};
        for (final String[] m : moves) {
            if (p.has(m[0])) {
                if (prompts.has(m[1])) {
                    throw new ConfigException(path + "." + m[0], "given both here and as prompts." + m[1]);
                }
                prompts.set(m[1], p.remove(m[0]));
            }
        }
        if (p.has("pool_size") || p.has("length")) {
            if (prompts.has("prefix_prompts")) {
                throw new ConfigException(path, "given both here and as prompts.prefix_prompts");
            }
            prompts.set("prefix_prompts", p);
        }
    }

    /**
     * Upstream's media shorthands: an image's {@code width}/{@code height} and an audio clip's {@code length} as a
     * number ({@code {mean: n}}), and the audio's {@code channels} ({@code num_channels} here).
     */
    private static void media(final ObjectNode ds) {
        if (ds.get("images") instanceof ObjectNode images) {
            meanOf(images, "width");
            meanOf(images, "height");
        }
        if (ds.get("audio") instanceof ObjectNode audio) {
            meanOf(audio, "length");
            rename(audio, "channels", "num_channels", "benchmark.dataset.audio");
        }
    }

    private static void meanOf(final ObjectNode node, final String key) {
        final JsonNode v = node.get(key);
        if (v != null && v.isNumber()) {
            node.putObject(key).set("mean", v);
        }
    }

    /** Named list form for every accepted phases shape, ramps in upstream's spelling renamed. */
    static ArrayNode phaseList(final JsonNode phases) {
        final ArrayNode list = namedPhases(phases);
        for (final JsonNode p : list) {
            if (p.isObject()) {
                ramps((ObjectNode) p);
            }
        }
        return list;
    }

    /**
     * Upstream's {@code rate_ramp}, {@code concurrency_ramp} and {@code prefill_ramp}: a duration, or
     * {@code {duration, strategy}} where only the linear strategy is supported.
     */
    private static void ramps(final ObjectNode phase) {
        for (final String[] pair : new String[][]{{"rate_ramp", "rate_ramp_duration"},
                {"concurrency_ramp", "concurrency_ramp_duration"}, {"prefill_ramp", "prefill_concurrency_ramp_duration"}}) {
            JsonNode v = phase.get(pair[0]);
            if (v == null) {
                continue;
            }
            if (phase.has(pair[1])) {
                throw new ConfigException("phases." + pair[0], "give either '" + pair[0] + "' or '" + pair[1] + "'");
            }
            if (v.isObject()) {
                final String strategy = v.path("strategy").asText("linear");
                if (!strategy.equalsIgnoreCase("linear")) {
                    throw new ConfigException("phases." + pair[0] + ".strategy", "only the linear ramp is supported, "
                            + "not '" + strategy + "'");
                }
                v = v.get("duration");
            }
            phase.remove(pair[0]);
            phase.set(pair[1], v);
        }
    }

    private static ArrayNode namedPhases(final JsonNode phases) {
        if (phases.isArray()) {
            return (ArrayNode) phases;
        }
        if (!phases.isObject()) {
            throw new ConfigException("benchmark.phases", "expected a list of phases or a mapping, got "
                    + Section.typeName(phases));
        }
        final ArrayNode out = JsonNodeFactory.instance.arrayNode();
        boolean envelope = phases.size() > 0;
        final Iterator<Map.Entry<String, JsonNode>> check = phases.properties().iterator();
        while (check.hasNext()) {
            final Map.Entry<String, JsonNode> e = check.next();
            envelope &= CANONICAL_PHASES.contains(e.getKey()) && e.getValue().isObject();
        }
        if (!envelope) {
            final ObjectNode single = ((ObjectNode) phases).deepCopy();
            if (!single.has("name")) {
                single.put("name", "profiling");
            }
            out.add(single);
            return out;
        }
        for (final String name : List.of("warmup", "profiling")) {
            if (phases.has(name)) {
                final ObjectNode p = ((ObjectNode) phases.get(name)).deepCopy();
                p.put("name", name);
                out.add(p);
            }
        }
        return out;
    }
}
