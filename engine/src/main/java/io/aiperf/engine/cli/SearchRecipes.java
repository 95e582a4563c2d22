package io.aiperf.engine.cli;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.search.BisectionPlanner;
import io.aiperf.engine.search.GridPlanner;
import io.aiperf.engine.search.SearchSpec;
import io.aiperf.engine.search.Sla;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Upstream AIPerf's search recipes that are a search of concurrency under SLOs, expanded into this engine's SLOs,
 * objective and planner (src-docs/capacity.md, "Recipes"), and the parsing of --search-sla-tier,
 * --search-metric/-stat/-direction and --search-percentile-pooling. Stateless.
 */
final class SearchRecipes {
    static final String ITL = "max-throughput-itl-sla";
    static final String UNDER_SLA = "max-concurrency-under-sla";
    static final String GOODPUT = "max-goodput-under-slo";
    /** Upstream's default attainment fraction (DistServe's convention). */
    static final double DEFAULT_ATTAINMENT = 0.95;
    private static final List<String> OBJECTIVE_STATS = List.of("avg", "p50", "p90", "p95", "p99");

    /** The recipe SLA flags' values (null when not given). */
    record Targets(Double ttftMs, Double itlMs, Double tpotMs, Double e2eMs, Double errorRate, Double attainment) {
    }

    /**
     * A recipe's SLOs, its objective (or null) and its planner (or null: the planner options decide).
     */
    record Expanded(List<Sla> slas, SearchSpec.Objective objective, String planner, List<String> goodput) {
        Expanded(final List<Sla> slas, final SearchSpec.Objective objective, final String planner) {
            this(slas, objective, planner, List.of());
        }
    }

    private SearchRecipes() {
    }

    /** @throws ConfigException naming the recipe flag that is wrong, missing, or given without its recipe */
    static Expanded expand(final String recipe, final Targets t, final String style) {
        final List<Sla> slas = new ArrayList<>();
        final SearchSpec.Objective throughput = new SearchSpec.Objective("output_token_throughput", "avg",
                SearchSpec.Objective.MAXIMIZE);
        if (recipe == null) {
            orphan(t, style);
            return new Expanded(slas, null, null);
        }
        switch (recipe) {
            case SearchOptions.RECIPE -> {
                only(recipe, t, style, "--ttft-sla-ms");
                slas.add(new Sla("time_to_first_token", "p95", "lt", positive("--ttft-sla-ms", t.ttftMs(), recipe)));
                return new Expanded(slas, throughput, null);
            }
            case ITL -> {
                only(recipe, t, style, "--itl-sla-ms");
                slas.add(new Sla("inter_token_latency", "p95", "lt", positive("--itl-sla-ms", t.itlMs(), recipe)));
                return new Expanded(slas, throughput, null);
            }
            case UNDER_SLA -> {
                only(recipe, t, style, "--ttft-sla-ms", "--tpot-sla-ms", "--e2e-sla-ms", "--error-rate-sla",
                        "--search-style");
                if (t.ttftMs() != null) {
                    slas.add(new Sla("time_to_first_token", "p95", "lt", positive("--ttft-sla-ms", t.ttftMs(), recipe)));
                }
                if (t.tpotMs() != null) {
                    slas.add(new Sla("inter_token_latency", "p95", "lt", positive("--tpot-sla-ms", t.tpotMs(), recipe)));
                }
                if (t.e2eMs() != null) {
                    slas.add(new Sla("request_latency", "p99", "lt", positive("--e2e-sla-ms", t.e2eMs(), recipe)));
                }
                if (t.errorRate() != null) {
                    if (!(t.errorRate() > 0 && t.errorRate() < 1)) {
                        throw new ConfigException("--error-rate-sla", "must be a fraction between 0 and 1 (0.05 is "
                                + "5%), got " + t.errorRate());
                    }
                    // the metric is in percent: the fraction becomes percentage points, as upstream converts it
                    slas.add(new Sla("request_error_rate", "avg", "lt", 100 * t.errorRate()));
                }
                if (slas.isEmpty()) {
                    throw new ConfigException("--search-recipe", UNDER_SLA + " needs at least one of --ttft-sla-ms, "
                            + "--tpot-sla-ms, --e2e-sla-ms, --error-rate-sla");
                }
                return new Expanded(slas, null, planner(style));
            }
            case GOODPUT -> {
                only(recipe, t, style, "--ttft-sla-ms", "--tpot-sla-ms", "--e2e-sla-ms", "--slo-attainment-fraction");
                final List<String> goodput = new ArrayList<>();
                if (t.ttftMs() != null) {
                    goodput.add("time_to_first_token:" + Sla.num(positive("--ttft-sla-ms", t.ttftMs(), recipe)));
                }
                if (t.tpotMs() != null) {
                    goodput.add("inter_token_latency:" + Sla.num(positive("--tpot-sla-ms", t.tpotMs(), recipe)));
                }
                if (t.e2eMs() != null) {
                    goodput.add("request_latency:" + Sla.num(positive("--e2e-sla-ms", t.e2eMs(), recipe)));
                }
                if (goodput.isEmpty()) {
                    throw new ConfigException("--search-recipe", GOODPUT + " needs at least one per-request SLO: "
                            + "--ttft-sla-ms, --tpot-sla-ms, --e2e-sla-ms");
                }
                final double f = t.attainment() == null ? DEFAULT_ATTAINMENT : t.attainment();
                if (!(f > 0 && f <= 1)) {
                    throw new ConfigException("--slo-attainment-fraction", "must be in (0, 1], got " + f);
                }
                slas.add(new Sla(Sla.ATTAINMENT, "avg", "ge", f));
                return new Expanded(slas, new SearchSpec.Objective("goodput", "avg", SearchSpec.Objective.MAXIMIZE),
                        null, List.copyOf(goodput));
            }
            default -> throw new ConfigException("--search-recipe", "'" + recipe + "' is not implemented; the "
                    + "recipes here are " + String.join(", ", SearchOptions.RECIPES) + " (or give --search-space and "
                    + "--search-sla)");
        }
    }

    /** --search-style's planner: monotonic (a bisection) when not given. */
    private static String planner(final String style) {
        final String s = style == null ? "monotonic" : style.toLowerCase(Locale.ROOT);
        return switch (s) {
            case "monotonic" -> BisectionPlanner.NAME;
            case "grid" -> GridPlanner.NAME;
            default -> throw new ConfigException("--search-style", "'" + style + "' is not implemented; the styles "
                    + "here are monotonic and grid (smooth_isotonic, bo and optuna need fitting and Bayesian "
                    + "libraries this engine does not have: capacity.md in the docs)");
        };
    }

    private static double positive(final String flag, final Double v, final String recipe) {
        if (v == null || !(v > 0) || v.isInfinite()) {
            throw new ConfigException(flag, recipe + " needs " + flag + ", a positive number of ms");
        }
        return v;
    }

    /** A recipe flag given without a recipe. */
    private static void orphan(final Targets t, final String style) {
        final String flag = t.ttftMs() != null ? "--ttft-sla-ms" : t.itlMs() != null ? "--itl-sla-ms"
                : t.tpotMs() != null ? "--tpot-sla-ms" : t.e2eMs() != null ? "--e2e-sla-ms"
                : t.errorRate() != null ? "--error-rate-sla" : t.attainment() != null ? "--slo-attainment-fraction"
                : style != null ? "--search-style" : null;
        if (flag != null) {
            throw new ConfigException(flag, "belongs to a --search-recipe (" + String.join(", ", SearchOptions.RECIPES)
                    + "); add one, or say the SLO with --search-sla METRIC:STAT:lt:VALUE");
        }
    }

    /** A recipe flag that the recipe does not read. */
    private static void only(final String recipe, final Targets t, final String style, final String... allowed) {
        final List<String> ok = List.of(allowed);
        final String[][] given = {
            {t.ttftMs() == null ? null : "--ttft-sla-ms"}, {t.itlMs() == null ? null : "--itl-sla-ms"},
            {t.tpotMs() == null ? null : "--tpot-sla-ms"}, {t.e2eMs() == null ? null : "--e2e-sla-ms"},
            {t.errorRate() == null ? null : "--error-rate-sla"}, {style == null ? null : "--search-style"},
            {t.attainment() == null ? null : "--slo-attainment-fraction"},
        };
        for (final String[] g : given) {
            if (g[0] != null && !ok.contains(g[0])) {
                throw new ConfigException(g[0], "--search-recipe " + recipe + " does not read it; its flags are "
                        + String.join(", ", ok));
            }
        }
    }

    /** --search-sla-tier values: 2-10 tiers of {@code LABEL:SLA[,SLA...]} or {@code SLA[,SLA...]} (tier_N). */
    static List<SearchSpec.SlaTier> tiers(final List<String> specs) {
        if (specs.isEmpty()) {
            return List.of();
        }
        if (specs.size() < 2 || specs.size() > 10) {
            throw new ConfigException("--search-sla-tier", "give 2 to 10 tiers (each a capacity of its own), got "
                    + specs.size() + "; one set of SLOs is --search-sla");
        }
        final List<SearchSpec.SlaTier> out = new ArrayList<>();
        final Set<String> labels = new LinkedHashSet<>();
        for (final String spec : specs) {
            final String[] parts = spec.trim().split(",");
            String first = parts[0].trim();
            String label = "tier_" + (out.size() + 1);
            // LABEL:metric:stat:op:threshold has five fields; an SLA alone has four
            if (first.split(":").length == 5) {
                label = first.substring(0, first.indexOf(':'));
                first = first.substring(first.indexOf(':') + 1);
            }
            if (label.isBlank() || !labels.add(label)) {
                throw new ConfigException("--search-sla-tier", "each tier needs a label of its own, got '" + label
                        + "' in '" + spec + "'");
            }
            final List<Sla> slas = new ArrayList<>();
            slas.add(Sla.parse("--search-sla-tier", first));
            for (int i = 1; i < parts.length; i++) {
                slas.add(Sla.parse("--search-sla-tier", parts[i].trim()));
            }
            out.add(new SearchSpec.SlaTier(label, List.copyOf(slas)));
        }
        return List.copyOf(out);
    }

    /**
     * The objective: the recipe's, or --search-metric's (which then needs --search-direction, as upstream's).
     *
     * @throws ConfigException naming the flag that is wrong
     */
    static SearchSpec.Objective objective(final SearchSpec.Objective fromRecipe, final String metric,
                                          final String stat, final String direction, final String recipe) {
        if (metric == null) {
            final String orphan = stat != null ? "--search-stat" : direction != null ? "--search-direction" : null;
            if (orphan != null && fromRecipe == null) {
                throw new ConfigException(orphan, "applies only with --search-metric (the metric to optimise)");
            }
            if (orphan != null) {
                throw new ConfigException(orphan, "--search-recipe " + recipe + " sets the objective itself");
            }
            return fromRecipe;
        }
        if (fromRecipe != null) {
            throw new ConfigException("--search-metric", "--search-recipe " + recipe + " sets the objective itself "
                    + "(" + fromRecipe.metric() + " " + fromRecipe.stat() + ", " + fromRecipe.direction() + ")");
        }
        if (metric.isBlank()) {
            throw new ConfigException("--search-metric", "must name a metric, e.g. output_token_throughput");
        }
        final String s = stat == null ? "avg" : stat.toLowerCase(Locale.ROOT);
        if (!OBJECTIVE_STATS.contains(s)) {
            throw new ConfigException("--search-stat", "expected one of " + OBJECTIVE_STATS + ", got '" + stat + "'");
        }
        if (direction == null) {
            throw new ConfigException("--search-direction", "is required with --search-metric: maximize or minimize");
        }
        final String d = direction.toLowerCase(Locale.ROOT);
        if (!d.equals(SearchSpec.Objective.MAXIMIZE) && !d.equals(SearchSpec.Objective.MINIMIZE)) {
            throw new ConfigException("--search-direction", "expected maximize or minimize, got '" + direction + "'");
        }
        return new SearchSpec.Objective(metric.trim(), s, d);
    }

    /** --search-percentile-pooling: mean (the default) or pooled, which an avg objective rejects, as upstream's. */
    static String pooling(final String pooling, final SearchSpec.Objective objective) {
        if (pooling == null) {
            return SearchSpec.POOLING_MEAN;
        }
        final String p = pooling.toLowerCase(Locale.ROOT);
        if (!p.equals(SearchSpec.POOLING_MEAN) && !p.equals(SearchSpec.POOLING_POOLED)) {
            throw new ConfigException("--search-percentile-pooling", "expected mean or pooled, got '" + pooling + "'");
        }
        if (p.equals(SearchSpec.POOLING_POOLED) && objective != null && objective.stat().equals("avg")) {
            throw new ConfigException("--search-percentile-pooling", "pooled pools percentiles; --search-stat is avg");
        }
        return p;
    }
}
