package io.aiperf.engine.summary;

/**
 * The keys of {@code search_result.json}, a capacity search's result (src-docs/capacity.md), spelled here only:
 * {@code search/SearchResult} writes with these names, and the gate, the report and the CI read with them. A point
 * also carries the knob's own name (e.g. {@code concurrency}) with its value, and its trials' {@code convergence}
 * block as the convergence package writes it.
 */
public final class SearchResultCodec {
    // Top level.
    public static final String SEARCH = "search";
    public static final String STATUS = "status";
    public static final String CAPACITY = "capacity";
    public static final String AT_CAPACITY = "at_capacity";
    public static final String CAPACITY_BOUNDS = "capacity_bounds";
    public static final String LOW = "low";
    public static final String HIGH = "high";
    public static final String NEXT_MISSED = "next_missed";
    public static final String POINTS = "points";
    public static final String PATH = "path";
    public static final String BEST = "best";
    public static final String TIERS = "tiers";
    // What was searched, under search.
    public static final String KNOB = "knob";
    public static final String MIN = "min";
    public static final String MAX = "max";
    public static final String PLANNER = "planner";
    public static final String MAX_PROBES = "max_probes";
    public static final String MAX_TRIALS = "max_trials";
    public static final String CONFIDENCE = "confidence";
    public static final String BOUNDARY_BAND_PCT = "boundary_band_pct";
    public static final String MAX_CLIENT_LATENESS_MS = "max_client_lateness_ms";
    public static final String ADDED_WARMUP_REQUESTS = "added_warmup_requests";
    public static final String RECIPE = "recipe";
    public static final String SLAS = "slas";
    public static final String OBJECTIVE = "objective";
    public static final String DIRECTION = "direction";
    public static final String PERCENTILE_POOLING = "percentile_pooling";
    public static final String INITIAL_POINTS = "initial_points";
    public static final String RANDOM_SEED = "random_seed";
    public static final String SLA_TIERS = "sla_tiers";
    public static final String LABEL = "label";
    public static final String CONVERGENCE = "convergence";
    public static final String MODE = "mode";
    public static final String MIN_RUNS = "min_runs";
    // An SLO as given: metric, stat, op, threshold.
    public static final String METRIC = "metric";
    public static final String STAT = "stat";
    public static final String OP = "op";
    public static final String THRESHOLD = "threshold";
    // A tier's result.
    public static final String CONVERGED = "converged";
    public static final String BINDING_CONSTRAINT = "binding_constraint";
    // A probed point, its SLOs as judged and its trials.
    public static final String ORDER = "order";
    public static final String DECISION = "decision";
    public static final String ARTIFACT_DIR = "artifact_dir";
    public static final String VALIDITY = "validity";
    public static final String REQUEST_THROUGHPUT = "request_throughput";
    public static final String TRIALS = "trials";
    public static final String REASON = "reason";
    public static final String SLA = "sla";
    public static final String VALUE = "value";
    public static final String MARGIN = "margin";
    public static final String MET = "met";
    public static final String VERDICT = "verdict";
    public static final String DECIDED_BY = "decided_by";
    public static final String TRIAL_RESULTS = "trial_results";
    public static final String TRIAL = "trial";
    public static final String CLIENT_LATENESS_P99_MS = "client_lateness_p99_ms";
    public static final String CLIENT_LIMITED = "client_limited";
    public static final String VALUES = "values";
    public static final String ERROR = "error";

    private SearchResultCodec() {
    }
}
