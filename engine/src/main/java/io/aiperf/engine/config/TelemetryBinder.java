package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/** Binds what the run samples from the server besides its answers: {@code server_metrics} and {@code gpu_telemetry}. */
final class TelemetryBinder {
    private final List<String> warnings;

    TelemetryBinder(final List<String> warnings) {
        this.warnings = warnings;
    }

    /**
     * {@code gpu_telemetry}: false (the default), true (DCGM's default ports on localhost), a list of URLs, or
     * upstream's mapping {@code {enabled, urls, collector, mode}} (enabled by default; no URLs: DCGM's default ports).
     */
    static List<String> gpuTelemetry(final Section e) {
        final JsonNode raw = e.raw("gpu_telemetry");
        if (raw == null || raw.isNull() || raw.isBoolean() && !raw.asBoolean()) {
            return List.of();
        }
        if (raw.isBoolean()) {
            return List.of("http://localhost:9400/metrics", "http://localhost:9401/metrics");
        }
        final List<String> given;
        final Section where;
        if (raw.isObject()) {
            where = e.section("gpu_telemetry");
            where.allowOnly(List.of("enabled", "url", "urls", "collector", "mode", "metrics_file"));
            if (where.has("metrics_file")) {
                throw where.error("metrics_file", "GPU metrics recorded in a file are not replayed here; give the "
                        + "DCGM exporter's URLs (urls)");
            }
            final String collector = where.string("collector", "dcgm");
            if (!collector.equals("dcgm")) {
                throw where.error("collector", collector.equals("pynvml") || collector.equals("amdsmi")
                        ? "'" + collector + "' reads GPUs through a local library, which this engine does not; give "
                        + "the DCGM exporter's URLs (urls)" : "expected dcgm, got '" + collector + "'");
            }
            final String mode = where.string("mode", "summary"); // the live view is upstream's console only
            if (!List.of("summary", "realtime_dashboard").contains(mode)) {
                throw where.error("mode", "expected summary or realtime_dashboard, got '" + mode + "'");
            }
            if (where.has("url") && where.has("urls")) {
                throw where.error("url", "give either 'url' or 'urls', not both");
            }
            if (!where.bool("enabled", true)) {
                return List.of();
            }
            given = where.stringList(where.has("url") ? "url" : "urls");
        } else {
            where = e;
            given = e.stringList("gpu_telemetry");
        }
        final String key = where == e ? "gpu_telemetry" : "urls";
        final List<String> out = new ArrayList<>();
        for (final String u : given) {
            if (u.equals("pynvml") || u.equals("amdsmi")) {
                throw where.error(key, "'" + u + "' reads GPUs through a local library, which this engine "
                        + "does not; give the DCGM exporter's URL");
            }
            if (u.equals("dashboard")) {
                continue; // upstream's live GPU view; this engine has none, the samples are exported all the same
            }
            final String withScheme = u.contains("://") ? u : "http://" + u;
            try {
                final URI uri = new URI(withScheme);
                if (uri.getHost() == null) {
                    throw where.error(key, "'" + u + "' has no host");
                }
                out.add(uri.getPath() == null || uri.getPath().isEmpty() ? withScheme + "/metrics" : withScheme);
            } catch (URISyntaxException ex) {
                throw where.error(key, "'" + u + "' is not a URL: " + ex.getMessage());
            }
        }
        return out.isEmpty() ? List.of("http://localhost:9400/metrics", "http://localhost:9401/metrics")
                : List.copyOf(out);
    }

    /** {@code server_metrics}: true (the default), false, or {enabled, urls, formats, interval}. */
    ServerMetricsConfig serverMetrics(final Section e, final List<String> targets) {
        final JsonNode raw = e.raw("server_metrics");
        if (raw != null && raw.isBoolean() && !raw.asBoolean()) {
            return ServerMetricsConfig.OFF;
        }
        if (raw != null && !raw.isBoolean() && !raw.isObject()) {
            throw e.error("server_metrics", "expected true, false or a mapping");
        }
        final Section s = raw != null && raw.isObject() ? e.section("server_metrics") : null;
        if (s != null) {
            s.allowOnly(List.of("enabled", "urls", "formats", "interval"));
            if (!s.bool("enabled", true)) {
                return ServerMetricsConfig.OFF;
            }
        }
        final java.util.LinkedHashSet<String> urls = new java.util.LinkedHashSet<>();
        for (final String target : targets) {
            final URI u = URI.create(target);
            // the server's origin, not the route, and no userinfo (as the control hooks)
            urls.add(u.getScheme() + "://" + u.getHost() + (u.getPort() >= 0 ? ":" + u.getPort() : "") + "/metrics");
        }
        if (s != null) {
            for (final String u : s.stringList("urls")) {
                final String withScheme = u.contains("://") ? u : "http://" + u;
                try {
                    final URI uri = new URI(withScheme);
                    if (uri.getHost() == null) {
                        throw s.error("urls", "'" + u + "' has no host");
                    }
                    urls.add(uri.getPath() == null || uri.getPath().isEmpty() ? withScheme + "/metrics" : withScheme);
                } catch (URISyntaxException ex) {
                    throw s.error("urls", "'" + u + "' is not a URL: " + ex.getMessage());
                }
            }
        }
        final List<String> asked = s == null || !s.has("formats") ? List.of("json", "csv") : s.stringList("formats");
        final List<String> formats = new ArrayList<>();
        for (final String f : asked) {
            if (f.equals("json") || f.equals("csv")) {
                formats.add(f);
            } else if (!f.equals("jsonl") && !f.equals("parquet")) {
                throw s.error("formats", "unknown format '" + f + "'; expected json, csv, jsonl or parquet");
            }
        }
        if (formats.size() < asked.size()) {
            if (formats.isEmpty()) {
                throw s.error("formats", asked + " are not written by this engine; choose json and/or csv (jsonl and "
                        + "parquet are listed in cli.md under deliberate differences)");
            }
            warnings.add(s.field("formats") + ": only " + formats + " are written (jsonl and parquet are listed in "
                    + "cli.md under deliberate differences)");
            final ArrayNode kept = s.node().putArray("formats");
            formats.forEach(kept::add);
        }
        final double interval = s == null ? 1.0 : s.number("interval", 1.0);
        if (!(interval > 0) || Double.isInfinite(interval)) {
            throw s.error("interval", "Input should be greater than 0");
        }
        return new ServerMetricsConfig(true, List.copyOf(urls), List.copyOf(formats), interval);
    }
}
