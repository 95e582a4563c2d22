package io.aiperf.engine.telemetry;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.List;

/**
 * {@code server_metrics_export.json} in upstream AIPerf 0.13's shape (src-docs/server-metrics.md):
 * {@code schema_version}, {@code aiperf_version}, {@code benchmark_id}, a {@code summary} of the endpoints and the
 * window, {@code metrics_phase}, the {@code metrics} by name with a series per endpoint and label set, and the
 * {@code input_config}. Stateless.
 */
final class ServerMetricsJson {
    static final String SCHEMA_VERSION = "1.1";
    /** Python's {@code datetime.isoformat()} of a naive local time: microseconds, no zone. */
    private static final DateTimeFormatter LOCAL_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS");

    private ServerMetricsJson() {
    }

    /**
     * @param about the version, benchmark id and config echo of the run, or null (their keys are then left out)
     */
    static ObjectNode write(final List<ServerMetricsCollector.Target> targets, final Collection<ExportedMetric> metrics,
                            final long startEpochNanos, final long endEpochNanos, final ServerMetrics.About about) {
        final ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("schema_version", SCHEMA_VERSION);
        if (about != null) {
            root.put("aiperf_version", about.version());
            root.put("benchmark_id", about.benchmarkId());
        }
        summary(root.putObject("summary"), targets, startEpochNanos, endEpochNanos);
        root.put("metrics_phase", "profiling");
        final ObjectNode byName = root.putObject("metrics");
        for (final ExportedMetric m : metrics) {
            final ObjectNode metric = byName.putObject(m.name()).put("type", m.type()).put("description",
                    m.description());
            if (m.unit() != null) {
                metric.put("unit", m.unit());
            }
            final var series = metric.putArray("series");
            for (final ExportedMetric.Entry e : m.series()) {
                final ObjectNode one = series.addObject().put("endpoint_url", e.endpointUrl());
                if (!e.labels().isEmpty()) {
                    final ObjectNode labels = one.putObject("labels");
                    e.labels().forEach(labels::put);
                }
                final ObjectNode stats = one.putObject("stats");
                e.stats().forEach((k, v) -> {
                    if (v instanceof Long l) {
                        stats.put(k, l);
                    } else if (Double.isFinite(v.doubleValue())) {
                        stats.put(k, v.doubleValue());
                    }
                });
                if (e.buckets() != null) {
                    final ObjectNode buckets = one.putObject("buckets");
                    e.buckets().forEach(buckets::put);
                }
            }
        }
        if (about != null && about.inputConfig() != null) {
            root.set("input_config", about.inputConfig());
        }
        return root;
    }

    private static void summary(final ObjectNode summary, final List<ServerMetricsCollector.Target> targets,
                                final long startEpochNanos, final long endEpochNanos) {
        final var configured = summary.putArray("endpoints_configured");
        final var successful = summary.putArray("endpoints_successful");
        for (final ServerMetricsCollector.Target t : targets) {
            configured.add(t.shown());
            if (t.scrapes > 0) {
                successful.add(t.shown());
            }
        }
        summary.put("start_time", localTime(startEpochNanos));
        summary.put("end_time", localTime(endEpochNanos));
        final ObjectNode info = summary.putObject("endpoint_info");
        targets.stream().filter(t -> t.scrapes > 0).sorted(java.util.Comparator.comparing(t -> t.shown()))
                .forEach(t -> endpoint(info.putObject(t.shown()), t.fetches));
        if (startEpochNanos < endEpochNanos) {
            summary.putObject("phase_time_ranges").putObject("profiling").put("start_ns", startEpochNanos)
                    .put("end_ns", endEpochNanos);
        }
    }

    private static void endpoint(final ObjectNode e, final FetchLog f) {
        e.put("total_fetches", f.fetches);
        e.put("first_fetch_ns", f.firstFetchEpochNanos);
        e.put("last_fetch_ns", f.lastFetchEpochNanos);
        e.put("avg_fetch_latency_ms", f.avgLatencyMillis());
        e.put("unique_updates", f.updates);
        e.put("first_update_ns", f.firstUpdateEpochNanos);
        e.put("last_update_ns", f.lastUpdateEpochNanos);
        e.put("duration_seconds", f.updateSeconds());
        e.put("avg_update_interval_ms", f.avgUpdateIntervalMillis());
        if (Double.isFinite(f.medianUpdateIntervalMillis())) {
            e.put("median_update_interval_ms", f.medianUpdateIntervalMillis());
        }
    }

    private static String localTime(final long epochNanos) {
        return LocalDateTime.ofInstant(Instant.ofEpochSecond(0, epochNanos), ZoneId.systemDefault())
                .format(LOCAL_TIME);
    }
}
