package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Binds {@code benchmark.artifacts}: where the exports go and how much of each request they keep. */
final class ArtifactsBinder {
    static final List<String> ARTIFACT_KEYS = List.of("dir", "prefix", "export_level", "slice_duration", "summary",
            "records", "raw", "export_outputs_json", "export_http_trace", "show_trace_timing", "auto_plot", "plot_required", "otel");
    private final List<String> warnings;

    ArtifactsBinder(final List<String> warnings) {
        this.warnings = warnings;
    }

    ArtifactsConfig bind(final Section art) {
        art.allowOnly(ARTIFACT_KEYS);
        final boolean dirExplicit = art.has("dir");
        final String exportLevel = art.string("export_level", exportLevelOf(art)).toLowerCase(Locale.ROOT);
        if (!List.of("summary", "records", "raw").contains(exportLevel)) {
            throw art.error("export_level", "expected summary, records or raw, got '" + exportLevel + "'");
        }
        final Double slice = art.seconds("slice_duration");
        if (slice != null && !(slice > 0)) {
            throw art.error("slice_duration", "Input should be greater than 0");
        }
        if (slice != null && exportLevel.equals("summary")) {
            throw art.error("slice_duration", "timeslices are computed from the per-request records, which "
                    + "--export-level summary does not write");
        }
        return new ArtifactsConfig(art.string("dir", "artifacts"), dirExplicit,
                art.string("prefix", null), exportLevel, slice, art.bool("export_outputs_json", false),
                art.bool("export_http_trace", false), art.bool("show_trace_timing", false),
                art.bool("auto_plot", false), art.bool("plot_required", false),
                art.has("otel") ? OtelBinder.bind(art.section("otel")) : null);
    }

    /**
     * Upstream's artifact formats: {@code summary: [json]} (the summary JSON and CSV are always written here, as the
     * gate, the report and compare read them), {@code records: [jsonl]} or {@code false} (export level summary),
     * {@code raw: true} (export level raw). They are folded into {@code export_level}.
     */
    private String exportLevelOf(final Section art) {
        final JsonNode summary = art.raw("summary");
        if (summary != null && !summary.isNull()) {
            if (summary.isBoolean() && !summary.asBoolean()) {
                throw art.error("summary", "the summary JSON is always written (the gate, the report and compare "
                        + "read it); remove summary: false");
            }
            formats(art, "summary", summary, List.of("json", "csv"));
        }
        final JsonNode records = art.raw("records");
        final JsonNode raw = art.raw("raw");
        final boolean noRecords = records != null && records.isBoolean() && !records.asBoolean();
        if (records != null && !records.isNull() && !noRecords) {
            if (formats(art, "records", records, List.of("jsonl", "csv")).contains("csv")) {
                warnings.add(art.field("records") + ": records are written as JSONL only (upstream has no records "
                        + "CSV either); csv ignored");
            }
        }
        if (raw != null && !raw.isNull() && !raw.isBoolean()) {
            throw art.error("raw", "expected true or false");
        }
        final boolean rawExport = raw != null && raw.asBoolean();
        if (art.has("export_level") && (records != null || raw != null)) {
            throw art.error("export_level", "give either export_level or records/raw");
        }
        art.node().remove(List.of("summary", "records", "raw"));
        if (rawExport && noRecords) {
            throw art.error("raw", "raw: true keeps the records; it cannot go with records: false");
        }
        return rawExport ? "raw" : noRecords ? "summary" : "records";
    }

    private static List<String> formats(final Section art, final String key, final JsonNode v,
                                        final List<String> allowed) {
        if (!v.isArray() || v.isEmpty()) {
            throw art.error(key, key + " takes a non-empty list of formats (" + String.join(", ", allowed)
                    + ") or false");
        }
        final List<String> out = new ArrayList<>();
        for (final JsonNode f : v) {
            final String name = f.asText().toLowerCase(Locale.ROOT);
            if (!allowed.contains(name)) {
                throw art.error(key, "unknown format '" + f.asText() + "'; expected " + String.join(", ", allowed));
            }
            out.add(name);
        }
        return out;
    }
}
