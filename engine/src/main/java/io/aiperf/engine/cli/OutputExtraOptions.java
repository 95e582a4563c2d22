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

    @Option(names = "--otel-url", paramLabel = "URL", description = "Push each cell's results to this OpenTelemetry "
            + "collector as OTLP/HTTP JSON metrics after the run (POST; a bare host:port gets /v1/metrics).")
    String otelUrl;

    @Option(names = "--stream", paramLabel = "DOMAIN", arity = "1..*", description = "What --otel-url pushes: "
            + "metrics (the summary statistics), timing (the request counts) or default (both).")
    java.util.List<String> stream;

    @Option(names = "--otel-resource-attributes", paramLabel = "KEY=VALUE", arity = "1..*", description = "Added to "
            + "the OTel resource of every push.")
    java.util.List<String> otelResourceAttributes;

    @Option(names = "--gen-ai-provider", paramLabel = "PROVIDER", description = "The gen_ai.provider.name of the "
            + "pushed metrics. Default: openai.")
    String genAiProvider;

    /** Adds the typed values to the overlay. */
    void apply(final CliOverlay o) {
        o.set("artifacts.export_http_trace", exportHttpTrace, "--export-http-trace");
        o.set("artifacts.show_trace_timing", showTraceTiming, "--show-trace-timing");
        o.set("artifacts.auto_plot", Boolean.TRUE.equals(noAutoPlot) ? Boolean.FALSE : autoPlot,
                Boolean.TRUE.equals(noAutoPlot) ? "--no-auto-plot" : "--auto-plot");
        o.set("artifacts.plot_required", plotRequired, "--plot-required");
        o.set("artifacts.otel.url", otelUrl, "--otel-url");
        o.set("artifacts.otel.stream", list(stream), "--stream");
        o.set("artifacts.otel.resource_attributes", list(otelResourceAttributes), "--otel-resource-attributes");
        o.set("artifacts.otel.gen_ai_provider", genAiProvider, "--gen-ai-provider");
        if (otelUrl == null && (stream != null || otelResourceAttributes != null || genAiProvider != null)) {
            throw new io.aiperf.engine.config.ConfigException(stream != null ? "--stream"
                    : otelResourceAttributes != null ? "--otel-resource-attributes" : "--gen-ai-provider",
                    "configures the OTel push; add --otel-url");
        }
    }

    private static com.fasterxml.jackson.databind.node.ArrayNode list(final java.util.List<String> values) {
        if (values == null) {
            return null;
        }
        final com.fasterxml.jackson.databind.node.ArrayNode a =
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        values.forEach(a::add);
        return a;
    }
}
