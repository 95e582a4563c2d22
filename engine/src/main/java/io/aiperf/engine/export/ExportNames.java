package io.aiperf.engine.export;

import java.util.List;

/**
 * AIPerf's export file names and prefix rule (AIPerf's export docs): with a prefix {@code foo} the summary is
 * {@code foo.json} / {@code foo.csv} and the records {@code foo.jsonl}; known suffixes are stripped from the
 * prefix given.
 */
public record ExportNames(String summaryJson, String summaryCsv, String recordsJsonl, String inputsJson,
                          String serverMetricsJson, String serverMetricsCsv, String rawJsonl,
                          String gpuTelemetryJsonl, String gpuTelemetryJson, String timeslicesJson,
                          String timeslicesCsv) {
    private static final List<String> KNOWN_SUFFIXES = List.of("_raw.jsonl", "_timeslices.csv", "_timeslices.json",
            "_console.txt", "_server_metrics.json", "_server_metrics.csv", "_gpu_telemetry.jsonl", "_gpu_telemetry.json", ".jsonl", ".json", ".csv");

    public static ExportNames of(final String prefix) {
        if (prefix == null || prefix.isBlank()) {
            return new ExportNames("profile_export_aiperf.json", "profile_export_aiperf.csv", "profile_export.jsonl",
                    "inputs.json", "server_metrics_export.json", "server_metrics_export.csv", "profile_export_raw.jsonl",
                    "gpu_telemetry_export.jsonl", "gpu_telemetry_export.json",
                    "profile_export_aiperf_timeslices.json", "profile_export_aiperf_timeslices.csv");
        }
        String p = prefix;
        for (final String suffix : KNOWN_SUFFIXES) {
            if (p.endsWith(suffix)) {
                p = p.substring(0, p.length() - suffix.length());
                break;
            }
        }
        return new ExportNames(p + ".json", p + ".csv", p + ".jsonl", "inputs.json", p + "_server_metrics.json",
                p + "_server_metrics.csv", p + "_raw.jsonl", p + "_gpu_telemetry.jsonl", p + "_gpu_telemetry.json",
                p + "_timeslices.json", p + "_timeslices.csv");
    }
}
