package io.aiperf.engine.summary;

/**
 * The keys of the trial aggregate ({@code aggregate/profile_export_aiperf_aggregate.json}) and the sweep aggregate
 * ({@code sweep_aggregate/profile_export_aiperf_sweep.json}), in upstream AIPerf's layout (src-docs/exports.md),
 * spelled here only: {@code sweep/TrialAggregator} and {@code sweep/SweepAggregator} write with these names; the
 * aggregate's CSV, the console, the gate and the CI read with them. A trial aggregate's metric key is
 * {@code <tag>_<stat>}; a sweep aggregate's is the same with trials, and the bare {@code <tag>} without them.
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
    // The trial aggregate's metadata; the sweep aggregate's top level.
    public static final String NUM_PROFILE_RUNS = "num_profile_runs";
    public static final String NUM_SUCCESSFUL_RUNS = "num_successful_runs";
    public static final String FAILED_RUNS = "failed_runs";
    public static final String ERROR = CellOutcomeCodec.ERROR;
    public static final String RUN_LABELS = "run_labels";
    public static final String COOLDOWN_SECONDS = CellOutcomeCodec.COOLDOWN_SECONDS;
    /** True when one trial succeeded: its values stand alone, with no spread and no interval. */
    public static final String SINGLE_RUN = "single_run";
    // A sweep point's trial aggregate also names its point.
    public static final String VARIATION_LABEL = SummaryCodec.VARIATION_LABEL;
    public static final String VARIATION_VALUES = SummaryCodec.VARIATION_VALUES;
    public static final String MODEL = "model";
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
    // A one-trial point's metric in the sweep aggregate: the summary's own statistics beside the above.
    public static final String AVG = SummaryCodec.AVG;
    public static final String COUNT = SummaryCodec.COUNT;
    public static final String SUM = SummaryCodec.SUM;
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
    /** Of a best configuration: the winning value (upstream's name for it). */
    public static final String METRIC = "metric";
    // The values of aggregation_type and sweep_mode.
    public static final String TYPE_CONFIDENCE = "confidence";
    public static final String TYPE_SWEEP = "sweep";
    public static final String MODE_REPEATED = "repeated";
    public static final String MODE_INDEPENDENT = "independent";

    private AggregateCodec() {
    }
}
