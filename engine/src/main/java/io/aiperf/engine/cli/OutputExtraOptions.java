package io.aiperf.engine.cli;

import io.aiperf.engine.config.CliOverlay;
import picocli.CommandLine.Option;

/**
 * Upstream AIPerf's output options beyond the export files: the HTTP trace of each record and its console table,
 * and the report it calls plots (src-docs/exports.md, "HTTP trace"; src-docs/report.md).
 */
@Topic(HelpTopic.OUTPUT)
public final class OutputExtraOptions {
    @Yaml("benchmark.artifacts.export_http_trace")
    @Option(names = "--export-http-trace", description = "Each line of profile_export.jsonl also carries its HTTP "
            + "trace: trace_data with the wall-clock stamps of the pool wait, connect, write, response head and "
            + "body (the http_req_* metrics are in every line without it).")
    Boolean exportHttpTrace;

    @Yaml("benchmark.artifacts.show_trace_timing")
    @Option(names = "--show-trace-timing", description = "Print the HTTP trace timing table (the http_req_* "
            + "metrics: blocked, DNS lookup, connecting, sending, waiting, receiving, connection reuse, data and "
            + "chunks sent and received, connection overhead, duration, total) after the metrics.")
    Boolean showTraceTiming;

    @Option(names = "--auto-plot", description = "Upstream's flag for its plots. Every run writes "
            + "report.html (the engine's report, what upstream's aiperf plot draws) anyway; with --plot-required, a "
            + "report that cannot be written fails the run. Default: off.")
    Boolean autoPlot;

    @Option(names = "--no-auto-plot", description = "Upstream's negation of --auto-plot; the run's own report.html is "
            + "written anyway.")
    Boolean noAutoPlot;

    @Yaml("benchmark.artifacts.plot_required")
    @Option(names = "--plot-required", description = "A report that cannot be written fails the run (exit 1) "
            + "instead of a warning; only with --auto-plot.")
    Boolean plotRequired;

    @Yaml("benchmark.artifacts.otel.url")
    @Option(names = "--otel-url", paramLabel = "URL", description = "Push each cell's results to this OpenTelemetry "
            + "collector as OTLP/HTTP JSON metrics after the run (POST; a bare host:port gets /v1/metrics).")
    String otelUrl;

    @Yaml("benchmark.artifacts.otel.stream")
    @Option(names = "--stream", paramLabel = "DOMAIN", arity = "1..*", description = "What --otel-url pushes: "
            + "metrics (the summary statistics), timing (the request counts) or default (both).")
    java.util.List<String> stream;

    @Yaml("benchmark.artifacts.otel.resource_attributes")
    @Option(names = "--otel-resource-attributes", paramLabel = "KEY=VALUE", arity = "1..*", description = "Added to "
            + "the OTel resource of every push.")
    java.util.List<String> otelResourceAttributes;

    @Yaml("benchmark.artifacts.otel.gen_ai_provider")
    @Option(names = "--gen-ai-provider", paramLabel = "PROVIDER", description = "The gen_ai.provider.name of the "
            + "pushed metrics. Default: openai.")
    String genAiProvider;

    /** Sets the key of --auto-plot and its negation, and checks the OTel flags; the table sets the rest. */
    void apply(final CliOverlay o) {
        o.set("artifacts.auto_plot", Boolean.TRUE.equals(noAutoPlot) ? Boolean.FALSE : autoPlot,
                Boolean.TRUE.equals(noAutoPlot) ? "--no-auto-plot" : "--auto-plot");
        if (otelUrl == null && (stream != null || otelResourceAttributes != null || genAiProvider != null)) {
            throw new io.aiperf.engine.config.ConfigException(stream != null ? "--stream"
                    : otelResourceAttributes != null ? "--otel-resource-attributes" : "--gen-ai-provider",
                    "configures the OTel push; add --otel-url");
        }
    }
}
