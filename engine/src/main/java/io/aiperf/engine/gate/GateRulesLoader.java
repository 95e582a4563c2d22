package io.aiperf.engine.gate;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.Suggestions;
import io.aiperf.engine.config.YamlLoader;
import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.metrics.MetricSpec;
import io.aiperf.engine.metrics.Stats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reads a rules file:
 * <pre>
 * significance: false      # default for every rule
 * alpha: 0.05
 * validity: {error_share: {warn: 5, invalid: 20}}   # thresholds of the validity checks
 * require_same: [model, tokenizer]                  # fingerprint fields baseline and candidate must share
 * require_baseline: true                            # no baseline fails the relative rules
 * rules:
 *   - {metric: time_to_first_token, stat: p99, max_increase_pct: 10, criticality: failure}
 * </pre>
 * Unknown keys, metrics and stats are errors that list the valid names.
 */
public final class GateRulesLoader {
    private static final List<String> TOP_KEYS = List.of("rules", "significance", "alpha", "validity", "require_same",
            "require_baseline");
    private static final List<String> RULE_KEYS = List.of("metric", "stat", "cell", "direction", "max", "min",
            "max_increase_pct", "max_decrease_pct", "max_regression_pct", "noise_floor", "criticality",
            "significance", "alpha");

    private GateRulesLoader() {
    }

    public static List<GateRule> load(final Path file) {
        return read(file).rules();
    }

    /** The whole rules file: rules, validity thresholds and the fingerprint fields that must match. */
    public static GateRules read(final Path file) {
        final JsonNode root;
        try {
            root = YamlLoader.load(file, System.getenv());
        } catch (ConfigException e) {
            throw new ConfigException("--rules", e.reason()); // the rules file, not the benchmark config
        }
        final JsonNode requireBaseline = root.path("require_baseline");
        if (!requireBaseline.isMissingNode() && !requireBaseline.isBoolean()) {
            throw new ConfigException("require_baseline", "expected true or false, got " + requireBaseline);
        }
        return new GateRules(parse(root, file.toString()), validity(root.path("validity")),
                requireSame(root.path("require_same")), requireBaseline.asBoolean(false));
    }

    private static io.aiperf.engine.validity.Thresholds validity(final JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return io.aiperf.engine.validity.Thresholds.defaults();
        }
        if (!node.isObject()) {
            throw new ConfigException("validity", "expected a mapping of check names to {warn, invalid}");
        }
        final List<String> names = List.copyOf(io.aiperf.engine.validity.Thresholds.names());
        keys(node, names, "validity.");
        final Map<String, io.aiperf.engine.validity.Thresholds.Limits> overrides = new java.util.LinkedHashMap<>();
        final Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
        while (it.hasNext()) {
            final Map.Entry<String, JsonNode> e = it.next();
            final String path = "validity." + e.getKey();
            if (!e.getValue().isObject()) {
                throw new ConfigException(path, "expected {warn: N, invalid: N}");
            }
            keys(e.getValue(), List.of("warn", "invalid"), path + ".");
            final io.aiperf.engine.validity.Thresholds.Limits def =
                    io.aiperf.engine.validity.Thresholds.defaults().of(e.getKey());
            final Double warn = number(e.getValue(), "warn", path);
            final Double invalid = number(e.getValue(), "invalid", path);
            overrides.put(e.getKey(), new io.aiperf.engine.validity.Thresholds.Limits(
                    warn == null ? def.warn() : warn, invalid == null ? def.invalid() : invalid));
        }
        return io.aiperf.engine.validity.Thresholds.with(overrides);
    }

    /** The fields named, or null when none are: then the defaults apply ({@link io.aiperf.engine.validity.Fingerprint#DEFAULT_REQUIRED}). */
    private static List<String> requireSame(final JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            throw new ConfigException("require_same", "expected a list of fingerprint fields, for example [model, tokenizer]");
        }
        final List<String> out = new ArrayList<>();
        for (final JsonNode f : node) {
            final String name = f.asText();
            if (!io.aiperf.engine.validity.Fingerprint.FIELDS.contains(name)) {
                throw new ConfigException("require_same", "unknown fingerprint field '" + name + "'"
                        + Suggestions.didYouMean(name, io.aiperf.engine.validity.Fingerprint.FIELDS) + "; known: "
                        + io.aiperf.engine.validity.Fingerprint.FIELDS);
            }
            out.add(name);
        }
        return out;
    }

    public static List<GateRule> parse(final JsonNode root, final String source) {
        keys(root, TOP_KEYS, "");
        final boolean defaultSignificance = root.path("significance").asBoolean(false);
        final double defaultAlpha = root.path("alpha").asDouble(0.05);
        final JsonNode rules = root.get("rules");
        if (rules == null || !rules.isArray() || rules.isEmpty()) {
            throw new ConfigException("rules", source + " needs a non-empty 'rules:' list");
        }
        final List<GateRule> out = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            out.add(rule(rules.get(i), "rules[" + i + "]", defaultSignificance, defaultAlpha));
        }
        return out;
    }

    private static GateRule rule(final JsonNode r, final String path, final boolean defaultSignificance,
                                 final double defaultAlpha) {
        if (!r.isObject()) {
            throw new ConfigException(path, "expected a mapping");
        }
        keys(r, RULE_KEYS, path + ".");
        final String metric = io.aiperf.engine.config.MetricAliases.resolve(r.path("metric").asText(""));
        if (GateRule.CAPACITY.equals(metric)) {
            return capacityRule(r, path);
        }
        final MetricSpec spec = MetricRegistry.byTag(metric);
        if (spec == null) {
            throw new ConfigException(path + ".metric", "unknown metric '" + metric + "'"
                    + Suggestions.didYouMean(metric, MetricRegistry.tags()) + "; valid: capacity (of a capacity search) or "
                    + new TreeSet<>(MetricRegistry.tags()));
        }
        final List<String> stats = MetricRegistry.SWEEP_LINE.contains(spec) ? Stats.TIME_WEIGHTED_NAMES
                : spec.distribution() ? Stats.NAMES : List.of("avg", "value");
        final String stat = r.path("stat").asText(spec.distribution() ? "avg" : "avg");
        if (!stats.contains(stat)) {
            throw new ConfigException(path + ".stat", "unknown stat '" + stat + "' for " + metric
                    + Suggestions.didYouMean(stat, stats) + "; valid: " + stats);
        }
        final Direction direction;
        if (r.has("direction")) {
            final String d = r.get("direction").asText().toLowerCase(Locale.ROOT).replace('-', '_');
            direction = switch (d) {
                case "lower_is_better", "lower" -> Direction.LOWER_IS_BETTER;
                case "higher_is_better", "higher" -> Direction.HIGHER_IS_BETTER;
                default -> throw new ConfigException(path + ".direction",
                        "expected lower_is_better or higher_is_better, got '" + d + "'");
            };
        } else {
            direction = spec.largerIsBetter() ? Direction.HIGHER_IS_BETTER : Direction.LOWER_IS_BETTER;
        }
        final String crit = r.path("criticality").asText("failure").toLowerCase(Locale.ROOT);
        final Criticality criticality = criticality(crit, path);
        final GateRule rule = new GateRule(metric, stat, r.has("cell") ? r.get("cell").asText() : null, direction,
                number(r, "max", path), number(r, "min", path), percent(r, "max_increase_pct", path),
                percent(r, "max_decrease_pct", path), percent(r, "max_regression_pct", path),
                percent(r, "noise_floor", path), criticality,
                r.has("significance") ? r.get("significance").asBoolean() : defaultSignificance,
                r.has("alpha") ? r.get("alpha").asDouble() : defaultAlpha);
        if (rule.max() == null && rule.min() == null && !rule.hasRelativeLimit()) {
            throw new ConfigException(path, "a rule needs a limit: max, min, max_increase_pct, max_decrease_pct "
                    + "or max_regression_pct");
        }
        if (!(rule.alpha() > 0 && rule.alpha() < 1)) {
            throw new ConfigException(path + ".alpha", "must be between 0 and 1");
        }
        return rule;
    }

    /**
     * A rule on a capacity search's result (src-docs/capacity.md): the knob value, higher is better; no stat, cell,
     * direction or significance (one number per search, its bounds say how sure it is).
     */
    private static GateRule capacityRule(final JsonNode r, final String path) {
        for (final String key : List.of("cell", "direction", "significance", "alpha")) {
            if (r.has(key)) {
                throw new ConfigException(path + "." + key, "a capacity rule takes no " + key + ": the capacity is one "
                        + "number per search, higher is better");
            }
        }
        if (r.has("stat") && !r.get("stat").asText().equals("value")) {
            throw new ConfigException(path + ".stat", "a capacity rule has no stat (or stat: value), got '"
                    + r.get("stat").asText() + "'");
        }
        final String crit = r.path("criticality").asText("failure").toLowerCase(Locale.ROOT);
        final GateRule rule = new GateRule(GateRule.CAPACITY, "value", null, Direction.HIGHER_IS_BETTER,
                number(r, "max", path), number(r, "min", path), percent(r, "max_increase_pct", path),
                percent(r, "max_decrease_pct", path), percent(r, "max_regression_pct", path),
                percent(r, "noise_floor", path), criticality(crit, path), false, 0.05);
        if (rule.max() == null && rule.min() == null && !rule.hasRelativeLimit()) {
            throw new ConfigException(path, "a capacity rule needs a limit: min (e.g. min: 8) or max_decrease_pct "
                    + "(e.g. max_decrease_pct: 20)");
        }
        return rule;
    }

    private static Criticality criticality(final String crit, final String path) {
        return switch (crit) {
            case "failure", "fail", "failed" -> Criticality.FAILURE;
            case "unstable" -> Criticality.UNSTABLE;
            default -> throw new ConfigException(path + ".criticality", "expected unstable or failure, got '" + crit + "'");
        };
    }

    private static Double number(final JsonNode r, final String key, final String path) {
        final JsonNode v = r.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isNumber()) {
            throw new ConfigException(path + "." + key, "expected a number, got " + v);
        }
        return v.doubleValue();
    }

    private static Double percent(final JsonNode r, final String key, final String path) {
        final Double v = number(r, key, path);
        if (v != null && v < 0) {
            throw new ConfigException(path + "." + key, "must be 0 or more");
        }
        return v;
    }

    private static void keys(final JsonNode node, final List<String> allowed, final String prefix) {
        final Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
        while (it.hasNext()) {
            final String k = it.next().getKey();
            if (!allowed.contains(k)) {
                throw new ConfigException(prefix + k, "unknown key" + Suggestions.didYouMean(k, allowed)
                        + "; known keys: " + allowed);
            }
        }
    }
}
