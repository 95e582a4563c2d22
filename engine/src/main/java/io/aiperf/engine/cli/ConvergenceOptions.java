package io.aiperf.engine.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.convergence.ConvergenceSpec;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * {@code aiperf profile}'s adaptive convergence options, under upstream AIPerf's names (src-docs/capacity.md,
 * "Convergence"), and YAML's {@code multi_run.convergence}: repeated trials stop once a statistic is stable.
 */
@Topic(HelpTopic.TRIALS)
public final class ConvergenceOptions {
    @Yaml("multi_run.convergence.metric")
    @Option(names = "--convergence-metric", paramLabel = "METRIC", description = "Stop the trials (at most "
            + "--num-profile-runs, or a search point's --search-trials-max) once this metric's --convergence-stat is "
            + "stable by --convergence-mode, e.g. time_to_first_token; convergence.json says which trials ran.")
    String metric;

    @Yaml("multi_run.convergence.stat")
    @Option(names = "--convergence-stat", paramLabel = "CSTAT", description = "avg (the default), p50, p90, p95, "
            + "p99, min or max: the statistic of each trial judged by ci_width and cv.")
    String stat;

    @Yaml("multi_run.convergence.threshold")
    @Option(names = "--convergence-threshold", paramLabel = "FRACTION", description = "In (0, 1): ci_width's most "
            + "interval width over the mean (default 0.10), cv's most coefficient of variation (0.05), or "
            + "distribution's least Kolmogorov-Smirnov p-value (0.05).")
    Double threshold;

    @Yaml("multi_run.convergence.mode")
    @Option(names = "--convergence-mode", paramLabel = "CMODE", description = "ci_width (the default: the Student's t "
            + "interval of the trials' mean at --confidence-level, over the mean), cv (std over mean) or "
            + "distribution (the latest trial's requests against the earlier ones', needs the records export).")
    String mode;

    /** The option rows of this class: their {@code multi_run.convergence.KEY} lines are that mapping's keys. */
    private static final OptionTable TABLE = OptionTable.of(ConvergenceOptions.class);
    /** The one key of {@code multi_run.convergence} that no option sets. */
    private static final String MIN_RUNS = "min_runs";

    private Integer minRuns;

    /**
     * Takes the settings of a config file's {@code multi_run.convergence} that no option gave.
     *
     * @throws ConfigException naming {@code multi_run.convergence.KEY} for an unknown key or a wrong value
     */
    void defaults(final JsonNode file) {
        final JsonNode m = file == null ? null : file.has("multi_run") ? file.get("multi_run") : file.get("multiRun");
        JsonNode c = m == null ? null : m.get("convergence");
        if (c != null && c.isObject()) {
            c = snakeCase((com.fasterxml.jackson.databind.node.ObjectNode) c); // keys may be camelCase, as everywhere
        }
        TABLE.fill(this, c, "multi_run.convergence", List.of(MIN_RUNS));
        if (c != null && c.hasNonNull(MIN_RUNS)) {
            if (!c.get(MIN_RUNS).canConvertToExactIntegral()) {
                throw new ConfigException("multi_run.convergence.min_runs", "expected a whole number, got "
                        + c.get(MIN_RUNS));
            }
            minRuns = c.get(MIN_RUNS).asInt();
        }
    }

    private static JsonNode snakeCase(final com.fasterxml.jackson.databind.node.ObjectNode c) {
        final com.fasterxml.jackson.databind.node.ObjectNode out = c.objectNode();
        c.properties().forEach(e -> out.set(e.getKey().replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT),
                e.getValue()));
        return out;
    }

    /**
     * The {@code multi_run.convergence} mapping of an expanded config ({@code aiperf config expand}): every setting
     * of {@code spec} written out, under the keys {@link #defaults} reads back to the same convergence.
     */
    static com.fasterxml.jackson.databind.node.ObjectNode section(final ConvergenceSpec spec) {
        final ConvergenceOptions c = new ConvergenceOptions();
        c.metric = spec.metric();
        c.stat = spec.stat();
        c.mode = spec.mode();
        c.threshold = spec.threshold();
        final com.fasterxml.jackson.databind.node.ObjectNode section = TABLE.tree(c, "multi_run.convergence");
        section.put(MIN_RUNS, spec.minRuns());
        return section;
    }

    /**
     * The convergence asked for, or null.
     *
     * @throws ConfigException naming the option and what is wrong
     */
    ConvergenceSpec spec() {
        if (metric == null) {
            final String orphan = stat != null ? "--convergence-stat" : threshold != null ? "--convergence-threshold"
                    : mode != null ? "--convergence-mode" : null;
            if (orphan != null) {
                throw new ConfigException(orphan, "applies only with --convergence-metric (the metric that must be "
                        + "stable)");
            }
            return null;
        }
        if (metric.isBlank()) {
            throw new ConfigException("--convergence-metric", "must name a metric, e.g. time_to_first_token");
        }
        final String s = stat == null ? "avg" : stat.toLowerCase(Locale.ROOT);
        if (!ConvergenceSpec.STATS.contains(s)) {
            throw new ConfigException("--convergence-stat", "expected one of " + ConvergenceSpec.STATS + ", got '"
                    + stat + "'");
        }
        final String m = mode == null ? ConvergenceSpec.CI_WIDTH : mode.toLowerCase(Locale.ROOT);
        if (!ConvergenceSpec.MODES.contains(m)) {
            throw new ConfigException("--convergence-mode", "expected one of " + ConvergenceSpec.MODES + ", got '"
                    + mode + "'");
        }
        final double t = threshold == null ? ConvergenceSpec.defaultThreshold(m) : threshold;
        if (!(t > 0 && t < 1)) {
            throw new ConfigException("--convergence-threshold", "must be between 0 and 1 (exclusive), got " + t);
        }
        final int min = minRuns == null ? ConvergenceSpec.DEFAULT_MIN_RUNS : minRuns;
        if (min < 2 || min > 10) {
            throw new ConfigException("multi_run.convergence.min_runs", "must be between 2 and 10 (a spread needs two "
                    + "trials), got " + min);
        }
        return new ConvergenceSpec(metric.trim(), s, m, t, min);
    }
}
