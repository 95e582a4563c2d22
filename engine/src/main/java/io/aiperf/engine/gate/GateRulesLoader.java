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
 * rules:
 *   - {metric: time_to_first_token, stat: p99, max_increase_pct: 10, criticality: failure}
 * </pre>
 * Unknown keys, metrics and stats are errors that list the valid names.
 */
public final class GateRulesLoader {
    private static final List<String> TOP_KEYS = List.of("rules", "significance", "alpha");
    private static final List<String> RULE_KEYS = List.of("metric", "stat", "cell", "direction", "max", "min",
            "max_increase_pct", "max_decrease_pct", "max_regression_pct", "noise_floor", "criticality",
            "significance", "alpha");

    private GateRulesLoader() {
    }

    public static List<GateRule> load(final Path file) {
        final JsonNode root;
        try {
            root = YamlLoader.load(file, System.getenv());
        } catch (ConfigException e) {
            throw new ConfigException("--rules", e.reason()); // the rules file, not the benchmark config
        }
        return parse(root, file.toString());
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
        final String metric = r.path("metric").asText("");
        final MetricSpec spec = MetricRegistry.byTag(metric);
        if (spec == null) {
            throw new ConfigException(path + ".metric", "unknown metric '" + metric + "'"
                    + Suggestions.didYouMean(metric, MetricRegistry.tags()) + "; valid: " + new TreeSet<>(MetricRegistry.tags()));
        }
        final List<String> stats = spec.distribution() ? Stats.NAMES : List.of("avg", "value");
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
        final Criticality criticality = switch (crit) {
            case "failure", "fail", "failed" -> Criticality.FAILURE;
            case "unstable" -> Criticality.UNSTABLE;
            default -> throw new ConfigException(path + ".criticality", "expected unstable or failure, got '" + crit + "'");
        };
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
