package io.aiperf.engine.summary;

/**
 * The keys of {@code cell_outcome.json}, how one cell ended (src-docs/exports.md), spelled here only:
 * {@code export/OutcomeJsonWriter} writes with these names, {@code export/OutcomeJsonReader} reads a whole outcome
 * back, and the gate and the CI read its status, error and warnings with them.
 */
public final class CellOutcomeCodec {
    public static final String SCHEMA_VERSION = "schema_version";
    public static final String AIPERF_VERSION = "aiperf_version";
    public static final String STATUS = "status";
    public static final String EXIT_CODE = "exit_code";
    public static final String ARTIFACT_DIR = "artifact_dir";
    public static final String WARNINGS = "warnings";
    public static final String ERROR = "error";
    // The control hooks' calls.
    public static final String HOOKS = "hooks";
    public static final String HOOK = "hook";
    public static final String ORIGIN = "origin";
    public static final String URL = "url";
    public static final String ATTEMPTS = "attempts";
    public static final String RESULT = "result";
    public static final String STATUS_CODE = "status_code";
    public static final String ELAPSED_MS = "elapsed_ms";
    // What was sent and what came back.
    public static final String COUNTS = "counts";
    public static final String REQUESTS_SENT = "requests_sent";
    public static final String VALID = "valid";
    public static final String ERRORS = "errors";
    // Which cell of the run it is.
    public static final String CELL = "cell";
    public static final String INDEX = "index";
    public static final String ID = "id";
    public static final String PATH = "path";
    public static final String VARIATION = "variation";
    public static final String PARAMETERS = "parameters";
    public static final String TRIAL = "trial";
    public static final String NUM_TRIALS = "num_trials";
    public static final String CONFIDENCE_LEVEL = "confidence_level";
    public static final String COOLDOWN_SECONDS = "cooldown_seconds";
    // This process's shard of the cell.
    public static final String SHARD = "shard";
    public static final String COUNT = "count";
    public static final String START_AT = "start_at";
    public static final String START_LATENESS_MS = "start_lateness_ms";
    public static final String CLOCK_OFFSET_MS = "clock_offset_ms";
    public static final String CLOCK_OFFSET_RESOLUTION_MS = "clock_offset_resolution_ms";

    private CellOutcomeCodec() {
    }
}
