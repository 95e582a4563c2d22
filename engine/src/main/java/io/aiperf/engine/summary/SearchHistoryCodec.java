package io.aiperf.engine.summary;

/**
 * The keys of {@code search_history.json}, the search's trajectory in upstream AIPerf 0.13's shape
 * (src-docs/capacity.md, "Files"), spelled here only. The engine writes it for upstream's readers and never reads it
 * back: its own readers (the gate, the report, the CI step) read {@code search_result.json}. Words that are also
 * keys of {@code search_result.json} are that codec's constants.
 */
public final class SearchHistoryCodec {
    private SearchHistoryCodec() {
    }

    public static final String CONFIG = "config";
    public static final String PLANNER = SearchResultCodec.PLANNER;
    public static final String OBJECTIVES = "objectives";
    public static final String METRIC = SearchResultCodec.METRIC;
    public static final String STAT = SearchResultCodec.STAT;
    public static final String DIRECTION = SearchResultCodec.DIRECTION;
    public static final String THRESHOLD = SearchResultCodec.THRESHOLD;
    public static final String OUTCOME_CONSTRAINTS = "outcome_constraints";
    public static final String MAX_ITERATIONS = "max_iterations";
    public static final String N_INITIAL_POINTS = "n_initial_points";
    public static final String RANDOM_SEED = SearchResultCodec.RANDOM_SEED;
    public static final String IMPROVEMENT_PATIENCE = "improvement_patience";
    public static final String PLATEAU_WINDOW = "plateau_window";
    public static final String PLATEAU_THRESHOLD = "plateau_threshold";
    public static final String SEARCH_SPACE = "search_space";
    public static final String PATH = SearchResultCodec.PATH;
    public static final String LO = "lo";
    public static final String HI = "hi";
    public static final String KIND = "kind";
    public static final String SLA_FILTERS = "sla_filters";
    public static final String METRIC_TAG = "metric_tag";
    public static final String OP = SearchResultCodec.OP;
    public static final String TIERS = SearchResultCodec.TIERS;
    public static final String LABEL = SearchResultCodec.LABEL;
    public static final String FILTERS = "filters";
    public static final String ITERATIONS = "iterations";
    public static final String ITERATION_IDX = "iteration_idx";
    /** Also a key of the summary's run_info, which the summary codec spells. */
    public static final String VARIATION_VALUES = SummaryCodec.VARIATION_VALUES;
    public static final String OBJECTIVE_VALUES = "objective_values";
    public static final String FEASIBLE = "feasible";
    public static final String NON_MONOTONIC_WARNING = "non_monotonic_warning";
    public static final String BEST_TRIALS = "best_trials";
    public static final String FEASIBLE_COUNT = "feasible_count";
    public static final String PARETO_RANK = "pareto_rank";
    public static final String BOUNDARY_SUMMARY = "boundary_summary";
    public static final String SWEPT_DIM_PATH = "swept_dim_path";
    public static final String FEASIBLE_MAX = "feasible_max";
    public static final String INFEASIBLE_MIN = "infeasible_min";
    public static final String VALUE = SearchResultCodec.VALUE;
    public static final String OBJECTIVE_VALUE = "objective_value";
    public static final String FIRST_BREACH = "first_breach";
    public static final String OBSERVED = "observed";
    public static final String RECIPE = SearchResultCodec.RECIPE;
    public static final String CONVERGENCE_REASON = "convergence_reason";
}
