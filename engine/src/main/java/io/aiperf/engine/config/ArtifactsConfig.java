package io.aiperf.engine.config;

/**
 * Where exports go.
 *
 * @param dir the base directory
 * @param dirExplicit whether the user named the directory (otherwise a per-run subdirectory is used, §7.1)
 * @param prefix the export file prefix, or null for AIPerf's default names
 * @param exportLevel summary, records or raw (AIPerf's {@code --export-level})
 * @param sliceDurationSeconds the timeslice length ({@code --slice-duration}), or null for no timeslices
 * @param exportOutputsJson write {@code outputs.json}, the generated texts ({@code --export-outputs-json}; the raw
 *                          export level writes it too, as upstream's)
 */
public record ArtifactsConfig(String dir, boolean dirExplicit, String prefix, String exportLevel,
                              Double sliceDurationSeconds, boolean exportOutputsJson) {
}
