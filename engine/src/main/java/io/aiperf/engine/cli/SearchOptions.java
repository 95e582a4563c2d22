package io.aiperf.engine.cli;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.search.BisectionPlanner;
import io.aiperf.engine.search.GridPlanner;
import io.aiperf.engine.search.SearchSpec;
import io.aiperf.engine.search.Sla;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code aiperf profile}'s capacity search options (capacity.md in the docs), under upstream AIPerf's names: the
 * search space, SLAs and probe budget, and the {@code max-throughput-ttft-sla} recipe.
 */
@Topic(HelpTopic.SEARCH)
public final class SearchOptions {
    static final String RECIPE = "max-throughput-ttft-sla";
    /** Upstream's recipes that are searches on concurrency under SLOs (src-docs/capacity.md, "Recipes"). */
    static final List<String> RECIPES = List.of(RECIPE, SearchRecipes.ITL, SearchRecipes.UNDER_SLA,
            SearchRecipes.GOODPUT);
    static final int DEFAULT_MIN = 1;
    static final int DEFAULT_MAX = 64;

    @Yaml("search.space")
    @Option(names = "--search-space", paramLabel = "KNOB:LO,HI", description = "Search the highest concurrency (or "
            + "request_rate, whole requests/sec) in LO..HI that meets every --search-sla (a bisection; each point's "
            + "trials are cells of their own under search/).")
    String space;

    @Yaml("search.slas")
    @Option(names = "--search-sla", paramLabel = "METRIC:STAT:OP:THRESHOLD", description = "An SLO of the capacity "
            + "search, e.g. time_to_first_token:p95:lt:200 (OP lt, le, gt or ge; the threshold in the metric's unit); "
            + "repeatable: a point meets the SLOs when it meets all of them.")
    List<String> slas = new ArrayList<>();

    @Yaml("search.recipe")
    @Option(names = "--search-recipe", paramLabel = "RECIPE", description = "max-throughput-ttft-sla: the highest "
            + "concurrency (in --concurrency-min..--concurrency-max) whose TTFT p95 is below --ttft-sla-ms.")
    String recipe;

    @Yaml("search.ttft_sla_ms")
    @Option(names = "--ttft-sla-ms", paramLabel = "MS", description = "The recipe's TTFT p95 limit, ms.")
    Double ttftSlaMs;

    @Yaml("search.itl_sla_ms")
    @Option(names = "--itl-sla-ms", paramLabel = "MS", description = "max-throughput-itl-sla's inter-token latency "
            + "p95 limit, ms.")
    Double itlSlaMs;

    @Yaml("search.tpot_sla_ms")
    @Option(names = "--tpot-sla-ms", paramLabel = "MS", description = "max-concurrency-under-sla's time per output "
            + "token (inter_token_latency) p95 limit, ms.")
    Double tpotSlaMs;

    @Yaml("search.e2e_sla_ms")
    @Option(names = "--e2e-sla-ms", paramLabel = "MS", description = "max-concurrency-under-sla's request latency p99 "
            + "limit, ms.")
    Double e2eSlaMs;

    @Yaml("search.error_rate_sla")
    @Option(names = "--error-rate-sla", paramLabel = "FRACTION", description = "max-concurrency-under-sla's most "
            + "request error rate, a fraction in (0, 1): 0.05 is 5%%.")
    Double errorRateSla;

    @Yaml("search.slo_attainment_fraction")
    @Option(names = "--slo-attainment-fraction", paramLabel = "FRACTION", description = "max-goodput-under-slo's "
            + "least share of requests that meet every per-request SLO (--ttft-sla-ms, --tpot-sla-ms, --e2e-sla-ms), "
            + "in (0, 1]. Default: 0.95.")
    Double attainment;

    @Yaml("search.style")
    @Option(names = "--search-style", paramLabel = "STYLE", description = "max-concurrency-under-sla's planner: "
            + "monotonic (a bisection, the default here) or grid.")
    String style;

    @Yaml("search.metric")
    @Option(names = "--search-metric", paramLabel = "METRIC", description = "The metric the search reports the best "
            + "point by, among those that meet the SLOs (with --search-direction), e.g. output_token_throughput.")
    String metric;

    @Yaml("search.stat")
    @Option(names = "--search-stat", paramLabel = "SSTAT", description = "--search-metric's statistic: avg (the "
            + "default), p50, p90, p95 or p99.")
    String stat;

    @Yaml("search.direction")
    @Option(names = "--search-direction", paramLabel = "DIRECTION", description = "maximize or minimize "
            + "--search-metric.")
    String direction;

    @Yaml("search.initial_points")
    @Option(names = "--search-initial-points", paramLabel = "N", description = "Upstream's Bayesian start-up points "
            + "(below --search-max-iterations): recorded; bisection and grid need none.")
    Integer initialPoints;

    @Yaml("search.random_seed")
    @Option(names = "--search-random-seed", paramLabel = "SEED", description = "Upstream's search seed (0 or more): "
            + "recorded; bisection and grid draw nothing at random.")
    Long randomSeed;

    @Yaml("search.percentile_pooling")
    @Option(names = "--search-percentile-pooling", paramLabel = "POOLING", description = "mean (the default: a "
            + "point's percentile is the mean of its trials') or pooled (the percentile of all its trials' requests).")
    String pooling;

    @Option(names = "--bo-constraint-mode", paramLabel = "CONSTRAINT", description = "penalty or eic: accepted and "
            + "ignored, as upstream's (deprecated there; no planner here is Bayesian).")
    String boConstraintMode;

    @Yaml("search.sla_tiers")
    @Option(names = "--search-sla-tier", paramLabel = "TIER", description = "LABEL:SLA[,SLA...]: a tier of SLOs with "
            + "a capacity of its own, e.g. fast:time_to_first_token:p95:lt:50; 2-10 of them, probes shared.")
    List<String> tiers = new ArrayList<>();

    @Yaml(value = "search.concurrency_min", defaultValue = "" + DEFAULT_MIN)
    @Option(names = "--concurrency-min", paramLabel = "N", description = "Lowest concurrency searched.")
    Integer concurrencyMin;

    @Yaml(value = "search.concurrency_max", defaultValue = "" + DEFAULT_MAX)
    @Option(names = "--concurrency-max", paramLabel = "N", description = "Highest concurrency searched.")
    Integer concurrencyMax;

    @Yaml(value = "search.max_iterations", defaultValue = "" + SearchSpec.DEFAULT_MAX_PROBES)
    @Option(names = "--search-max-iterations", paramLabel = "N", description = "The most points probed (2-200).")
    Integer maxIterations;

    @Yaml("search.planner")
    @Option(names = "--search-planner", paramLabel = "PLANNER", description = "bisection (the default: assumes that "
            + "meeting the SLOs at a value means meeting them below it) or grid (--search-max-iterations values spread "
            + "over the range, each probed).")
    String planner;

    @Yaml(value = "search.trials_max", defaultValue = "" + SearchSpec.DEFAULT_MAX_TRIALS)
    @Option(names = "--search-trials-max", paramLabel = "N", description = "The most trials of one point (1-10): a "
            + "point whose SLO interval (at --confidence-level) holds a threshold gets another trial, and is "
            + "inconclusive when they are spent.")
    Integer maxTrials;

    @Yaml("search.boundary_band_pct")
    @Option(names = "--search-boundary-band", paramLabel = "PCT", description = "How near a threshold (percent of "
            + "it) a point's value must be to be judged at --confidence-level on its requests, with more trials; "
            + "farther points are decided on their value in one trial. Default: 10.")
    Double boundaryBandPct;

    @Yaml("search.max_client_lateness_ms")
    @Option(names = "--search-max-client-lateness", paramLabel = "MS", description = "A trial whose client's timer "
            + "wake-ups were later than this (p99, ms) was short of CPU: it is set aside and the point run again; a point "
            + "with no other trial is invalid and never meets the SLOs. Default: 20.")
    Double maxClientLateness;

    /** The option rows of this class: their {@code search.KEY} lines are the keys of a config file's search. */
    private static final OptionTable TABLE = OptionTable.of(SearchOptions.class);

    /**
     * Takes the settings of a config file's {@code search:} section that no option gave (capacity.md in the docs):
     * the command line wins over the file.
     *
     * @throws ConfigException naming {@code search.KEY} for an unknown key or a value of the wrong type
     */
    void defaults(final com.fasterxml.jackson.databind.JsonNode search) {
        TABLE.fill(this, search, "search");
    }

    /** Whether any option asks for a search. */
    boolean active() {
        return space != null || !slas.isEmpty() || recipe != null || ttftSlaMs != null || concurrencyMin != null
                || concurrencyMax != null || maxIterations != null || maxTrials != null
                || maxClientLateness != null || boundaryBandPct != null || planner != null || itlSlaMs != null
                || tpotSlaMs != null || e2eSlaMs != null || errorRateSla != null || style != null || metric != null
                || stat != null || direction != null || initialPoints != null || randomSeed != null || pooling != null
                || !tiers.isEmpty() || attainment != null;
    }

    /**
     * The search asked for, or null when none is.
     *
     * @throws ConfigException naming the option and what is wrong
     */
    SearchSpec spec(final Double confidenceLevel) {
        return spec(confidenceLevel, null);
    }

    /** The confidence level a search judges at: {@code --confidence-level}, else the file's, else null. */
    static Double confidenceLevel(final ProfileOptions options,
                                  final com.fasterxml.jackson.databind.node.ObjectNode file) {
        return options.confidenceLevel != null ? options.confidenceLevel
                : file != null && file.path("multi_run").path("confidence_level").isNumber()
                ? file.path("multi_run").path("confidence_level").asDouble() : null;
    }

    /**
     * @param convergence the run's --convergence-* (then a point's trials go on until they converge), or null
     */
    SearchSpec spec(final Double confidenceLevel, final io.aiperf.engine.convergence.ConvergenceSpec convergence) {
        if (!active()) {
            return null;
        }
        final SearchRecipes.Expanded expanded = SearchRecipes.expand(recipe, new SearchRecipes.Targets(ttftSlaMs,
                itlSlaMs, tpotSlaMs, e2eSlaMs, errorRateSla, attainment), style);
        final List<Sla> parsed = new ArrayList<>(expanded.slas());
        for (final String s : slas) {
            parsed.add(Sla.parse("--search-sla", s));
        }
        final List<SearchSpec.SlaTier> tierList = SearchRecipes.tiers(tiers);
        if (parsed.isEmpty() && tierList.isEmpty() && recipe == null && (metric != null || direction != null)) {
            // upstream 0.13 optimises the metric with Optuna (TPE, or BoTorch's GP); no library for that fits here
            throw new ConfigException("--search-metric", "a search without an SLO (upstream's Bayesian optimisation "
                    + "of the metric) is not implemented: no maintained Java library that this project may ship does "
                    + "Bayesian optimisation (capacity.md in the docs); give an SLO with --search-sla, or sweep the "
                    + "knob (--concurrency 1,2,4,8) and compare the metric");
        }
        if (parsed.isEmpty() && tierList.isEmpty()) {
            throw new ConfigException("--search-sla", "a capacity search needs at least one SLO, e.g. "
                    + "--search-sla time_to_first_token:p95:lt:200, or --search-recipe " + RECIPE);
        }
        final int[] bounds = bounds();
        final int probes = maxIterations == null ? SearchSpec.DEFAULT_MAX_PROBES : maxIterations;
        if (probes < 2 || probes > 200) {
            throw new ConfigException("--search-max-iterations", "must be between 2 and 200, got " + probes);
        }
        final int trials = maxTrials == null ? SearchSpec.DEFAULT_MAX_TRIALS : maxTrials;
        if (trials < 1 || trials > 10) {
            throw new ConfigException("--search-trials-max", "must be between 1 and 10, got " + trials);
        }
        final double confidence = confidenceLevel == null ? 0.95 : confidenceLevel;
        if (!(confidence > 0 && confidence < 1)) {
            throw new ConfigException("--confidence-level", "must be between 0 and 1, got " + confidence);
        }
        final double lateness = maxClientLateness == null ? SearchSpec.DEFAULT_MAX_CLIENT_LATENESS_MS
                : maxClientLateness;
        if (!(lateness > 0) || Double.isInfinite(lateness)) {
            throw new ConfigException("--search-max-client-lateness", "must be a positive number of ms, got "
                    + lateness);
        }
        final double band = boundaryBandPct == null ? SearchSpec.DEFAULT_BOUNDARY_BAND_PCT : boundaryBandPct;
        if (!(band >= 0) || Double.isInfinite(band)) {
            throw new ConfigException("--search-boundary-band", "must be a percentage, 0 or more, got " + band);
        }
        final String knob = space == null ? SearchSpec.CONCURRENCY : knob(space.trim().split(":")[0]);
        if (expanded.planner() != null && planner != null) {
            throw new ConfigException("--search-planner", "--search-recipe " + recipe + " chooses the planner with "
                    + "--search-style; remove --search-planner");
        }
        final String plan = expanded.planner() != null ? expanded.planner()
                : planner == null ? BisectionPlanner.NAME : planner.toLowerCase(java.util.Locale.ROOT);
        if (!plan.equals(BisectionPlanner.NAME) && !plan.equals(GridPlanner.NAME)) {
            throw new ConfigException("--search-planner", "'" + planner + "' is not implemented; the planners here are "
                    + "bisection and grid (a Bayesian planner needs a library this engine does not have: "
                    + "capacity.md in the docs)");
        }
        if (boConstraintMode != null && !List.of("penalty", "eic").contains(boConstraintMode)) {
            throw new ConfigException("--bo-constraint-mode", "expected penalty or eic, got '" + boConstraintMode + "'");
        }
        final SearchSpec.Objective objective = SearchRecipes.objective(expanded.objective(), metric, stat,
                direction, recipe);
        final String pool = SearchRecipes.pooling(pooling, metric != null ? objective : null);
        if (initialPoints != null && (initialPoints < 1 || initialPoints >= probes)) {
            throw new ConfigException("--search-initial-points", "must be 1 or more and below --search-max-iterations ("
                    + probes + "), got " + initialPoints);
        }
        if (randomSeed != null && randomSeed < 0) {
            throw new ConfigException("--search-random-seed", "must be 0 or more, got " + randomSeed);
        }
        return new SearchSpec(knob, bounds[0], bounds[1], List.copyOf(parsed), plan, probes, recipe,
                trials, confidence, band / 100, lateness, objective, pool, tierList, convergence, initialPoints,
                randomSeed, expanded.goodput());
    }

    private int[] bounds() {
        if (space != null) {
            if (concurrencyMin != null || concurrencyMax != null) {
                throw new ConfigException("--search-space", "give the range once: --search-space or "
                        + "--concurrency-min/--concurrency-max");
            }
            final String[] p = space.trim().split(":");
            final String knob = p.length >= 2 ? knob(p[0]) : null;
            if (knob == null || p.length > 3 || p.length == 3 && !p[2].equals("int")) {
                throw new ConfigException("--search-space", "expected concurrency:LO,HI or request_rate:LO,HI (the "
                        + "knobs searched here, in whole users or requests per second), got '" + space + "'");
            }
            final String[] range = p[1].split(",");
            if (range.length != 2) {
                throw new ConfigException("--search-space", "expected " + knob + ":LO,HI, got '" + space + "'");
            }
            return checked("--search-space", integer("--search-space", range[0]), integer("--search-space", range[1]));
        }
        return checked(concurrencyMin != null ? "--concurrency-min" : "--concurrency-max",
                concurrencyMin == null ? DEFAULT_MIN : concurrencyMin,
                concurrencyMax == null ? DEFAULT_MAX : concurrencyMax);
    }

    /** The knob a --search-space path names (upstream's dotted config path or its short name), or null. */
    static String knob(final String path) {
        return switch (path) {
            case "concurrency", "phases.profiling.concurrency" -> SearchSpec.CONCURRENCY;
            case "request_rate", "rate", "phases.profiling.rate" -> SearchSpec.REQUEST_RATE;
            default -> null;
        };
    }

    private static int integer(final String field, final String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(field, "'" + text.trim() + "' is not a whole number");
        }
    }

    private static int[] checked(final String field, final int lo, final int hi) {
        if (lo < 1 || hi <= lo) {
            throw new ConfigException(field, "the range must be 1 <= LO < HI, got " + lo + ".." + hi);
        }
        return new int[] {lo, hi};
    }
}
