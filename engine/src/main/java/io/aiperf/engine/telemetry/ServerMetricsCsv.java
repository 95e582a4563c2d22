package io.aiperf.engine.telemetry;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * {@code server_metrics_export.csv} in upstream AIPerf 0.13's layout (src-docs/server-metrics.md): a comment header,
 * then one section per type (gauges, counters, histograms, untyped), each with its own statistic columns and a
 * column per label, a row per endpoint and series; info metrics last, a row per label. Stateless.
 */
final class ServerMetricsCsv {
    private static final List<String> START = List.of("Endpoint", "Type", "Metric", "Unit");
    private static final List<String> GAUGE_STATS = List.of("avg", "min", "max", "std", "p1", "p5", "p10", "p25",
            "p50", "p75", "p90", "p95", "p99");
    private static final Map<String, List<String>> STATS = Map.of(
            ExportedMetric.GAUGE, GAUGE_STATS,
            ExportedMetric.UNKNOWN, GAUGE_STATS,
            ExportedMetric.COUNTER, List.of("total", "rate", "rate_avg", "rate_min", "rate_max", "rate_std"),
            ExportedMetric.HISTOGRAM, List.of("count", "count_rate", "sum", "sum_rate", "avg", "p1_estimate",
                    "p5_estimate", "p10_estimate", "p25_estimate", "p50_estimate", "p75_estimate", "p90_estimate",
                    "p95_estimate", "p99_estimate"));
    private static final List<String> SECTIONS = List.of(ExportedMetric.GAUGE, ExportedMetric.COUNTER,
            ExportedMetric.HISTOGRAM, ExportedMetric.UNKNOWN);

    private ServerMetricsCsv() {
    }

    /** One series of one metric, as a row. */
    private record Row(ExportedMetric metric, ExportedMetric.Entry entry) {
        String endpoint() {
            return display(entry.endpointUrl());
        }
    }

    static String write(final Collection<ExportedMetric> metrics, final String version, final String benchmarkId) {
        final StringBuilder sb = new StringBuilder();
        // The comment lines end in \n, the CSV rows in \r\n, as upstream writes them; the note is ours.
        sb.append("# AIPerf Server Metrics Export (CSV)\n# aiperf_version: ").append(version)
                .append("\n# schema_version: 1.0\n# benchmark_id: ").append(benchmarkId)
                .append("\n# Note: the JSON export carries the same benchmark_id and version\n#\n");
        final Map<String, List<Row>> byType = new LinkedHashMap<>();
        final List<Row> info = new ArrayList<>();
        for (final ExportedMetric m : metrics) {
            for (final ExportedMetric.Entry e : m.series()) {
                if (m.info() && (m.type().equals(ExportedMetric.GAUGE))) {
                    info.add(new Row(m, e));
                } else {
                    byType.computeIfAbsent(m.type(), k -> new ArrayList<>()).add(new Row(m, e));
                }
            }
        }
        boolean first = true;
        for (final String type : SECTIONS) {
            if (byType.containsKey(type)) {
                if (!first) {
                    sb.append("\r\n");
                }
                section(sb, type, byType.get(type));
                first = false;
            }
        }
        if (!info.isEmpty()) {
            if (!first) {
                sb.append("\r\n");
            }
            info(sb, info);
        }
        return sb.toString();
    }

    private static void section(final StringBuilder sb, final String type, final List<Row> rows) {
        final List<String> stats = STATS.get(type);
        final List<String> labels = labelColumns(rows);
        final List<String> header = new ArrayList<>(START);
        header.addAll(stats);
        header.addAll(labels);
        header.add("Description");
        final boolean histogram = type.equals(ExportedMetric.HISTOGRAM);
        if (histogram) {
            header.add("buckets");
        }
        line(sb, header);
        rows.sort(Comparator.comparing((Row r) -> fillPattern(r, labels)).thenComparing(r -> r.metric().name())
                .thenComparing(Row::endpoint).thenComparing(r -> r.entry().labels().toString()));
        for (final Row r : rows) {
            final List<String> cells = new ArrayList<>(List.of(r.endpoint(), type, r.metric().name(),
                    r.metric().unit() == null ? "" : r.metric().unit()));
            stats.forEach(s -> cells.add(number(r.entry().stats().get(s))));
            labels.forEach(l -> cells.add(r.metric().info() ? "" : r.entry().labels().getOrDefault(l, "")));
            cells.add(r.metric().description());
            if (histogram) {
                cells.add(r.entry().buckets() == null ? "" : r.entry().buckets().entrySet().stream()
                        .map(b -> b.getKey() + "=" + b.getValue()).collect(Collectors.joining(";")));
            }
            line(sb, cells);
        }
    }

    /** Info metrics, transposed: a row per label, by metric and endpoint. */
    private static void info(final StringBuilder sb, final List<Row> rows) {
        line(sb, List.of("Endpoint", "Metric", "Key", "Value", "Description"));
        rows.sort(Comparator.comparing((Row r) -> r.metric().name()).thenComparing(Row::endpoint));
        for (final Row r : rows) {
            new TreeMap<>(r.entry().labels()).forEach((k, v) -> line(sb,
                    List.of(r.endpoint(), r.metric().name(), k, v, r.metric().description())));
        }
    }

    /**
     * The label columns in an order that keeps each row's filled cells together: labels that occur together form a
     * family (families by their first label); in a family, labels of one series come before labels several share.
     */
    private static List<String> labelColumns(final List<Row> rows) {
        final List<Set<String>> sets = rows.stream().filter(r -> !r.metric().info() && !r.entry().labels().isEmpty())
                .map(r -> (Set<String>) new TreeSet<>(r.entry().labels().keySet())).toList();
        final Map<String, String> parent = new TreeMap<>();
        for (final Set<String> set : sets) {
            String previous = null;
            for (final String label : set) {
                root(parent, label);
                if (previous != null) {
                    parent.put(root(parent, label), root(parent, previous));
                }
                previous = label;
            }
        }
        final Map<String, TreeSet<String>> families = new TreeMap<>();
        parent.keySet().forEach(l -> families.computeIfAbsent(root(parent, l), k -> new TreeSet<>()).add(l));
        final List<String> out = new ArrayList<>();
        families.values().stream().sorted(Comparator.comparing(TreeSet::first)).forEach(family -> {
            family.stream().filter(l -> sets.stream().filter(s -> s.contains(l)).count() <= 1).forEach(out::add);
            family.stream().filter(l -> sets.stream().filter(s -> s.contains(l)).count() > 1).forEach(out::add);
        });
        return out;
    }

    private static String root(final Map<String, String> parent, final String label) {
        String at = label;
        parent.putIfAbsent(at, at);
        while (!parent.get(at).equals(at)) {
            at = parent.get(at);
        }
        return at;
    }

    /** Which label columns a row fills, as 1s and 0s: rows with the same pattern sort together. */
    private static String fillPattern(final Row r, final List<String> labels) {
        final StringBuilder sb = new StringBuilder();
        labels.forEach(l -> sb.append(r.entry().labels().containsKey(l) ? '1' : '0'));
        return sb.toString();
    }

    /** Counts as they are, other numbers with four decimals, nothing for a statistic not computed. */
    static String number(final Number n) {
        if (n == null) {
            return "";
        }
        if (n instanceof Long || n instanceof Integer) {
            return Long.toString(n.longValue());
        }
        return String.format(java.util.Locale.ROOT, "%.4f", n.doubleValue());
    }

    /**
     * The endpoint as upstream shows it: host:port and the path without its {@code /metrics}. Never a URL's
     * user:password, which upstream's would show.
     */
    static String display(final String url) {
        // the user-info goes first: the exports' URLs show it as the redaction mark, which no URI parser takes
        final URI uri = URI.create(url.replaceFirst("^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@", "$1"));
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (path.endsWith("/metrics")) {
            path = path.substring(0, path.length() - "/metrics".length());
        }
        return uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + path;
    }

    private static void line(final StringBuilder sb, final List<String> cells) {
        sb.append(cells.stream().map(ServerMetricsCsv::cell).collect(Collectors.joining(","))).append("\r\n");
    }

    private static String cell(final String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
                ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
