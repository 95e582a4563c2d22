package io.aiperf.engine.export;

import io.aiperf.engine.metrics.MetricValue;
import io.aiperf.engine.metrics.MetricsSummary;
import io.aiperf.engine.metrics.Stats;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code profile_export_aiperf.csv} (AIPerf's export docs): CRLF lines; distributions sorted by tag under
 * {@code Metric,avg,min,max,sum,p1,...,p99,std}; a blank line; then {@code Metric,Value} for single values; two blank
 * lines and the GPU section's header (no rows: GPU samples go to their own files).
 * Numbers as upstream AIPerf 0.13 prints them: every number has two decimals, sums and single values too (an ISL
 * of 550 reads {@code 550.00}, a request count of 100 {@code 100.00}).
 */
public final class SummaryCsvWriter {
    private static final String CRLF = "\r\n";
    private static final List<String> COLUMNS = List.of("avg", "min", "max", "sum", "p1", "p5", "p10", "p25", "p50",
            "p75", "p90", "p95", "p99", "std");

    static final String GPU_HEADER = "Endpoint,GPU_Index,GPU_Name,GPU_UUID,Platform,Metric,"
            + String.join(",", COLUMNS);

    private SummaryCsvWriter() {
    }

    public static byte[] bytes(final MetricsSummary summary) {
        final StringBuilder sb = new StringBuilder();
        final Map<String, MetricValue> sorted = new TreeMap<>(summary.metrics());
        sb.append("Metric,").append(String.join(",", COLUMNS)).append(CRLF);
        // by tag, as upstream sorts them; an error-adjusted row (upstream 0.13: only when requests failed) as adj_<tag>
        final Map<String, String> rows = new TreeMap<>();
        for (final Map.Entry<String, MetricValue> e : sorted.entrySet()) {
            final MetricValue m = e.getValue();
            if (m.stats() == null) {
                continue;
            }
            final Stats s = m.stats();
            final StringBuilder row = new StringBuilder(escape(name(m)));
            for (final String c : COLUMNS) {
                final double v = s.get(c); // NaN: a sweep-line metric's absent statistic, an empty cell as upstream's
                row.append(',').append(Double.isNaN(v) ? "" : Numbers.twoDecimals(v));
            }
            rows.put(e.getKey(), row.toString());
            if (!m.adjusted().isEmpty()) {
                final StringBuilder adj = new StringBuilder(escape(m.spec().header() + " (error-adjusted) ("
                        + m.spec().unit() + ")"));
                for (final String c : COLUMNS) {
                    final Double v = m.adjusted().get("adj_" + c); // the finite ones: no avg, max, sum or std
                    adj.append(',').append(v == null ? "" : Numbers.twoDecimals(v));
                }
                rows.put("adj_" + e.getKey(), adj.toString());
            }
        }
        rows.values().forEach(row -> sb.append(row).append(CRLF));
        sb.append(CRLF).append("Metric,Value").append(CRLF);
        for (final MetricValue m : sorted.values()) {
            if (m.stats() == null) {
                sb.append(escape(name(m))).append(',').append(Numbers.twoDecimals(m.value())).append(CRLF);
            }
        }
        // upstream 0.13's GPU section, its header even with no GPU rows; this engine's GPU samples are in
        // gpu_telemetry_export.json (src-docs/migrating.md)
        sb.append(CRLF).append(CRLF).append(GPU_HEADER).append(CRLF);
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** "Header (unit)" unless the unit is empty, count or requests. */
    static String name(final MetricValue m) {
        final String unit = m.spec().unit();
        return unit.isEmpty() || unit.equals("count") || unit.equals("requests") ? m.spec().header()
                : m.spec().header() + " (" + unit + ")";
    }

    private static String escape(final String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
