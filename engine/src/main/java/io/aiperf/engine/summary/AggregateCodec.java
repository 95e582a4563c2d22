package io.aiperf.engine.summary;

/**
 * The keys of the trial aggregate ({@code aggregate/profile_export_aiperf_aggregate.json}) and the sweep aggregate
 * ({@code sweep_aggregate/profile_export_aiperf_sweep.json}), in upstream AIPerf's layout (src-docs/exports.md),
 * spelled here only: {@code sweep/TrialAggregator} and {@code sweep/SweepAggregator} write with these names; the
 * aggregate's CSV, the console, the gate and the CI read with them. A metric's key is {@code <tag>_<stat>}.
 */
public final class AggregateCodec {
    // Both aggregates.
    public static final String SCHEMA_VERSION = CellOutcomeCodec.SCHEMA_VERSION;
    public static final String AIPERF_VERSION = CellOutcomeCodec.AIPERF_VERSION;
    public static final String METADATA = "metadata";
    public static final String AGGREGATION_TYPE = "aggregation_type";
    public static final String CONFIDENCE_LEVEL = CellOutcomeCodec.CONFIDENCE_LEVEL;
    public static final String METRICS = "metrics";
    public static final String LABEL = RunOutcomeCodec.LABEL;
    public static final String UNIT = "unit";
    // The trial aggregate's metadata.
    public static final String NUM_PROFILE_RUNS = "num_profile_runs";
    public static final String NUM_SUCCESSFUL_RUNS = "num_successful_runs";
    public static final String FAILED_RUNS = "failed_runs";
    public static final String ERROR = CellOutcomeCodec.ERROR;
    public static final String RUN_LABELS = "run_labels";
    public static final String COOLDOWN_SECONDS = CellOutcomeCodec.COOLDOWN_SECONDS;
    // A metric across trials, under metrics.
    public static final String MEAN = "mean";
    public static final String STD = "std";
    public static final String MIN = "min";
    public static final String MAX = "max";
    public static final String CV = "cv";
    public static final String SE = "se";
    public static final String T_CRITICAL = "t_critical";
    public static final String CI_LOW = "ci_low";
    public static final String CI_HIGH = "ci_high";
    // The sweep aggregate.
    public static final String SWEEP_PARAMETERS = "sweep_parameters";
    public static final String NAME = "name";
    public static final String VALUES = "values";
    public static final String NUM_COMBINATIONS = "num_combinations";
    public static final String NUM_TRIALS_PER_VALUE = "num_trials_per_value";
    public static final String SWEEP_MODE = "sweep_mode";
    public static final String PER_COMBINATION_METRICS = "per_combination_metrics";
    public static final String PARAMETERS = CellOutcomeCodec.PARAMETERS;
    public static final String BEST_CONFIGURATIONS = "best_configurations";
    public static final String BEST_THROUGHPUT = "best_throughput";
    public static final String BEST_LATENCY_P99 = "best_latency_p99";
    public static final String PARETO_OPTIMAL = "pareto_optimal";
    public static final String METRIC = "metric";
    public static final String VALUE = "value";
    // The values of aggregation_type and sweep_mode.
    public static final String TYPE_CONFIDENCE = "confidence";
    public static final String TYPE_SWEEP = "sweep";
    public static final String MODE_REPEATED = "repeated";

    private AggregateCodec() {
    }
}
