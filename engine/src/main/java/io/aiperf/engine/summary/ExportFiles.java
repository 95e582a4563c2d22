package io.aiperf.engine.summary;

/**
 * The one place export file and folder names are spelled (AIPerf's export docs for the files it shares with
 * upstream, src-docs/exports.md for the rest). {@link io.aiperf.engine.export.ExportNames} applies
 * {@code --profile-export-prefix} to the per-cell names; the run-level names here take no prefix.
 */
public final class ExportFiles {
    // A cell's exports, unprefixed.
    public static final String SUMMARY_JSON = "profile_export_aiperf.json";
    public static final String SUMMARY_CSV = "profile_export_aiperf.csv";
    public static final String RECORDS_JSONL = "profile_export.jsonl";
    public static final String RAW_JSONL = "profile_export_raw.jsonl";
    public static final String INPUTS_JSON = "inputs.json";
    public static final String OUTPUTS_JSON = "outputs.json";
    public static final String SERVER_METRICS_JSON = "server_metrics_export.json";
    public static final String SERVER_METRICS_CSV = "server_metrics_export.csv";
    public static final String GPU_TELEMETRY_JSONL = "gpu_telemetry_export.jsonl";
    public static final String GPU_TELEMETRY_JSON = "gpu_telemetry_export.json";
    public static final String TIMESLICES_JSON = "profile_export_aiperf_timeslices.json";
    public static final String TIMESLICES_CSV = "profile_export_aiperf_timeslices.csv";
    public static final String CELL_OUTCOME = "cell_outcome.json";
    /** The console summary of a cell, as upstream AIPerf writes it beside the exports. */
    public static final String CONSOLE_TXT = "profile_export_console.txt";
    /** Upstream AIPerf 0.13's marker, written last, that a cell's result files are complete. */
    public static final String READY_MARKER = ".aiperf_results_ready.json";

    // What a prefix {@code p} turns a cell's names into: {@code p + suffix}.
    public static final String PREFIXED_SUMMARY_JSON = ".json";
    public static final String PREFIXED_SUMMARY_CSV = ".csv";
    public static final String PREFIXED_RECORDS_JSONL = ".jsonl";
    public static final String PREFIXED_RAW_JSONL = "_raw.jsonl";
    public static final String PREFIXED_SERVER_METRICS_JSON = "_server_metrics.json";
    public static final String PREFIXED_SERVER_METRICS_CSV = "_server_metrics.csv";
    public static final String PREFIXED_GPU_TELEMETRY_JSONL = "_gpu_telemetry.jsonl";
    public static final String PREFIXED_GPU_TELEMETRY_JSON = "_gpu_telemetry.json";
    public static final String PREFIXED_TIMESLICES_JSON = "_timeslices.json";
    public static final String PREFIXED_TIMESLICES_CSV = "_timeslices.csv";
    /** Upstream's console export: the console summary, as a file. */
    public static final String PREFIXED_CONSOLE_TXT = "_console.txt";

    // A run's own files, beside its cells.
    public static final String RUN_OUTCOME = "run_outcome.json";
    public static final String REPORT_HTML = "report.html";
    public static final String MANIFEST = ".aiperf-manifest.json";
    public static final String LOG_FOLDER = "logs";
    public static final String LOG_FILE = "aiperf.log";

    // Trials and sweeps.
    public static final String AGGREGATE_FOLDER = "aggregate";
    public static final String AGGREGATE_JSON = "profile_export_aiperf_aggregate.json";
    public static final String AGGREGATE_CSV = "profile_export_aiperf_aggregate.csv";
    public static final String SWEEP_FOLDER = "sweep_aggregate";
    public static final String SWEEP_JSON = "profile_export_aiperf_sweep.json";
    public static final String SWEEP_CSV = "profile_export_aiperf_sweep.csv";

    // The gate, the capacity search and the Jenkins step.
    public static final String GATE_JSON = "gate_result.json";
    public static final String GATE_MARKDOWN = "gate_summary.md";
    public static final String GATE_JUNIT = "gate_junit.xml";
    public static final String SEARCH_JSON = "search_result.json";
    /** The search's trajectory in upstream's shape, for upstream's readers; nothing here reads it back. */
    public static final String SEARCH_HISTORY_JSON = "search_history.json";
    public static final String CONVERGENCE_JSON = "convergence.json";
    public static final String RUN_LABEL = "run_label.json";
    public static final String COMPARISON_SVG = "comparison.svg";

    private ExportFiles() {
    }
}
