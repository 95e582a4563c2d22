package io.aiperf.engine.summary;

/**
 * The keys of {@code gate_result.json}, what the regression gate decided (src-docs/gating.md), spelled here only:
 * {@code gate/GateReports} writes with these names, and the report and the CI read with them.
 */
public final class GateResultCodec {
    // Top level.
    public static final String VERDICT = "verdict";
    public static final String EXIT_CODE = CellOutcomeCodec.EXIT_CODE;
    /** At the top, the candidate's directory (so a report of it can draw the baselines too); in a rule, its value. */
    public static final String CANDIDATE = "candidate";
    public static final String BASELINES = "baselines";
    public static final String RULES = "rules";
    // One rule's result in one cell, under rules.
    public static final String METRIC = "metric";
    public static final String STAT = "stat";
    public static final String CELL = CellOutcomeCodec.CELL;
    public static final String UNIT = "unit";
    public static final String DIRECTION = "direction";
    public static final String CRITICALITY = "criticality";
    public static final String BASELINE = "baseline";
    public static final String BASELINE_TRIALS = "baseline_trials";
    public static final String CANDIDATE_TRIALS = "candidate_trials";
    public static final String DELTA = "delta";
    public static final String DELTA_PCT = "delta_pct";
    public static final String LIMIT = "limit";
    public static final String LIMIT_VALUE = "limit_value";
    public static final String CHANGE_CI_LOW_PCT = "change_ci_low_pct";
    public static final String CHANGE_CI_HIGH_PCT = "change_ci_high_pct";
    public static final String NOISE_FLOOR = "noise_floor";
    public static final String P_VALUE = "p_value";
    public static final String EFFECT_SIZE = "effect_size";
    public static final String STATUS = CellOutcomeCodec.STATUS;
    public static final String MESSAGE = "message";

    private GateResultCodec() {
    }
}
