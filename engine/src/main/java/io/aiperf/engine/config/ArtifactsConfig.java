package io.aiperf.engine.config;

/**
 * Where exports go.
 *
 * @param dir the base directory
 * @param dirExplicit whether the user named the directory (otherwise a per-run subdirectory is used)
 * @param prefix the export file prefix, or null for AIPerf's default names
 * @param exportLevel summary, records or raw (AIPerf's {@code --export-level})
 * @param sliceDurationSeconds the timeslice length ({@code --slice-duration}), or null for no timeslices
 * @param exportOutputsJson write {@code outputs.json}, the generated texts ({@code --export-outputs-json}; the raw
 *                          export level writes it too, as upstream's)
 * @param exportHttpTrace each record carries its HTTP trace ({@code --export-http-trace})
 * @param showTraceTiming print the HTTP trace timing table after the metrics ({@code --show-trace-timing})
 * @param autoPlot write report.html after the run ({@code --auto-plot}, upstream's name for its plots)
 * @param plotRequired a report that cannot be written fails the run ({@code --plot-required})
 * @param otel where the results are pushed as OTLP/HTTP metrics ({@code --otel-url}), or null
 */
public record ArtifactsConfig(String dir, boolean dirExplicit, String prefix, String exportLevel,
                              Double sliceDurationSeconds, boolean exportOutputsJson, boolean exportHttpTrace,
                              boolean showTraceTiming, boolean autoPlot, boolean plotRequired, Otel otel) {
    /**
     * The OTLP/HTTP metrics push (src-docs/exports.md, "OpenTelemetry").
     *
     * @param url the collector's metrics endpoint (a base URL gets {@code /v1/metrics})
     * @param metrics push the summary metrics (upstream's {@code --stream metrics})
     * @param timing push the request counters (upstream's {@code --stream timing})
     * @param resourceAttributes added to the resource of every push
     * @param provider {@code gen_ai.provider.name}, or null for the endpoint's (openai)
     */
    public record Otel(String url, boolean metrics, boolean timing,
                       java.util.Map<String, String> resourceAttributes, String provider) {
    }

    public ArtifactsConfig(final String dir, final boolean dirExplicit, final String prefix, final String exportLevel,
                           final Double sliceDurationSeconds, final boolean exportOutputsJson) {
        this(dir, dirExplicit, prefix, exportLevel, sliceDurationSeconds, exportOutputsJson, false, false, false,
                false, null);
    }
}
