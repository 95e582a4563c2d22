package io.aiperf.engine.cli;

import io.aiperf.engine.config.CliOverlay;
import picocli.CommandLine.Option;

/**
 * Upstream AIPerf's output options beyond the export files: the HTTP trace of each record and its console table,
 * and the report it calls plots (src-docs/exports.md, "HTTP trace"; src-docs/report.md).
 */
public final class OutputExtraOptions {
    @Option(names = "--export-http-trace", description = "Each line of profile_export.jsonl also carries its HTTP "
            + "trace: the http_req_* timings (blocked, connecting, waiting, receiving, ...) and trace_data with the "
            + "wall-clock stamps of the pool wait, connect, write, response head and body.")
    Boolean exportHttpTrace;

    @Option(names = "--show-trace-timing", description = "Print the HTTP trace timing table (blocked, connecting, "
            + "sending, waiting, receiving, duration, total; connection reuse) after the metrics.")
    Boolean showTraceTiming;

    @Option(names = "--auto-plot", description = "Write report.html (the engine's report, what "
            + "upstream's aiperf plot draws) into the artifact directory after the run. Default: off.")
    Boolean autoPlot;

    @Option(names = "--no-auto-plot", description = "Write no report.html after the run (the default).")
    Boolean noAutoPlot;

    @Option(names = "--plot-required", description = "A report that cannot be written fails the run (exit 1) "
            + "instead of a warning; only with --auto-plot.")
    Boolean plotRequired;

    /** Adds the typed values to the overlay. */
    void apply(final CliOverlay o) {
        o.set("artifacts.export_http_trace", exportHttpTrace, "--export-http-trace");
        o.set("artifacts.show_trace_timing", showTraceTiming, "--show-trace-timing");
        o.set("artifacts.auto_plot", Boolean.TRUE.equals(noAutoPlot) ? Boolean.FALSE : autoPlot,
                Boolean.TRUE.equals(noAutoPlot) ? "--no-auto-plot" : "--auto-plot");
        o.set("artifacts.plot_required", plotRequired, "--plot-required");
    }
}
