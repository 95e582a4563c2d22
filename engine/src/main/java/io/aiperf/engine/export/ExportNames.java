package io.aiperf.engine.export;

import static io.aiperf.engine.summary.ExportFiles.*;

import java.util.List;

/**
 * AIPerf's export file names and prefix rule (AIPerf's export docs): with a prefix {@code foo} the summary is
 * {@code foo.json} / {@code foo.csv} and the records {@code foo.jsonl}; known suffixes are stripped from the
 * prefix given.
 */
public record ExportNames(String summaryJson, String summaryCsv, String recordsJsonl, String inputsJson,
                          String serverMetricsJson, String serverMetricsCsv, String rawJsonl,
                          String gpuTelemetryJsonl, String gpuTelemetryJson, String timeslicesJson,
                          String timeslicesCsv, String consoleTxt) {
    private static final List<String> KNOWN_SUFFIXES = List.of(PREFIXED_RAW_JSONL,
            PREFIXED_TIMESLICES_CSV, PREFIXED_TIMESLICES_JSON, PREFIXED_CONSOLE_TXT, PREFIXED_SERVER_METRICS_JSON,
            PREFIXED_SERVER_METRICS_CSV, PREFIXED_GPU_TELEMETRY_JSONL, PREFIXED_GPU_TELEMETRY_JSON,
            PREFIXED_RECORDS_JSONL, PREFIXED_SUMMARY_JSON, PREFIXED_SUMMARY_CSV);

    public static ExportNames of(final String prefix) {
        if (prefix == null || prefix.isBlank()) {
            return new ExportNames(SUMMARY_JSON, SUMMARY_CSV, RECORDS_JSONL, INPUTS_JSON, SERVER_METRICS_JSON,
                    SERVER_METRICS_CSV, RAW_JSONL, GPU_TELEMETRY_JSONL, GPU_TELEMETRY_JSON, TIMESLICES_JSON,
                    TIMESLICES_CSV, CONSOLE_TXT);
        }
        String p = prefix;
        for (final String suffix : KNOWN_SUFFIXES) {
            if (p.endsWith(suffix)) {
                p = p.substring(0, p.length() - suffix.length());
                break;
            }
        }
        return new ExportNames(p + PREFIXED_SUMMARY_JSON, p + PREFIXED_SUMMARY_CSV, p + PREFIXED_RECORDS_JSONL, INPUTS_JSON,
                p + PREFIXED_SERVER_METRICS_JSON, p + PREFIXED_SERVER_METRICS_CSV, p + PREFIXED_RAW_JSONL,
                p + PREFIXED_GPU_TELEMETRY_JSONL, p + PREFIXED_GPU_TELEMETRY_JSON, p + PREFIXED_TIMESLICES_JSON,
                p + PREFIXED_TIMESLICES_CSV, p + PREFIXED_CONSOLE_TXT);
    }
}
