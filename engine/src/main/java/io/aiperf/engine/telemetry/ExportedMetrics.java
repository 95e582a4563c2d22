package io.aiperf.engine.telemetry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns what the scrapes kept into the metrics the export shows, with upstream AIPerf 0.13's statistics
 * (src-docs/server-metrics.md): a gauge by the statistics of its samples, a counter by its change and rate, a
 * histogram by its change in count and sum, their rates, its buckets and estimated percentiles. Families upstream
 * leaves out are left out: summaries, {@code _created} timestamps and uptimes. Stateless.
 */
final class ExportedMetrics {
    private static final int[] GAUGE_PERCENTILES = {1, 5, 10, 25, 50, 75, 90, 95, 99};

    private ExportedMetrics() {
    }

    /** By metric name (sorted as upstream sorts them: by code point), series by endpoint and labels. */
    static Map<String, ExportedMetric> of(final List<ServerMetricsCollector.Target> targets) {
        final Map<String, ExportedMetric> out = new TreeMap<>();
        for (final ServerMetricsCollector.Target t : targets) {
            if (t.scrapes == 0) {
                continue;
            }
            final Map<String, List<Series>> families = new LinkedHashMap<>();
            for (final Series s : t.series.values()) {
                if (!s.name.endsWith("_created")) {
                    families.computeIfAbsent(s.family, k -> new ArrayList<>()).add(s);
                }
            }
            families.forEach((family, series) -> add(out, t, family, series));
        }
        out.values().forEach(m -> m.series().sort(Comparator.comparing(ExportedMetric.Entry::endpointUrl)
                .thenComparing(e -> e.labels().toString())));
        return out;
    }

    private static void add(final Map<String, ExportedMetric> out, final ServerMetricsCollector.Target t,
                            final String family, final List<Series> series) {
        final String declared = t.types.getOrDefault(family, "untyped");
        if (family.endsWith("_created") || family.endsWith("_uptime") || family.contains("_uptime_")
                || declared.equals("summary")) {
            return;
        }
        final String type = switch (declared) {
            case "gauge" -> ExportedMetric.GAUGE;
            case "counter" -> ExportedMetric.COUNTER;
            case "histogram" -> ExportedMetric.HISTOGRAM;
            default -> ExportedMetric.UNKNOWN;
        };
        final String name = type.equals(ExportedMetric.COUNTER) && family.endsWith("_total")
                ? family.substring(0, family.length() - "_total".length()) : family;
        final String help = t.help.getOrDefault(family, "");
        final List<ExportedMetric.Entry> entries = type.equals(ExportedMetric.HISTOGRAM)
                ? histograms(t, family, series) : scalars(t, type, series);
        if (entries.isEmpty()) {
            return;
        }
        final ExportedMetric metric = out.computeIfAbsent(name,
                n -> new ExportedMetric(n, type, help, MetricUnits.of(n, help), new ArrayList<>()));
        if (metric.type().equals(type)) {
            metric.series().addAll(entries);
        }
    }

    private static List<ExportedMetric.Entry> scalars(final ServerMetricsCollector.Target t, final String type,
                                                      final List<Series> series) {
        final List<ExportedMetric.Entry> out = new ArrayList<>();
        for (final Series s : series) {
            if (s.count() == 0) {
                continue;
            }
            final Map<String, Number> stats = new LinkedHashMap<>();
            if (type.equals(ExportedMetric.COUNTER)) {
                final double total = Math.max(s.delta(), 0);
                stats.put("total", total);
                stats.put("rate", s.seconds() > 0 ? total / s.seconds() : 0.0);
            } else {
                stats.put("avg", s.mean());
                stats.put("min", s.min());
                stats.put("max", s.max());
                stats.put("std", s.std());
                for (final int p : GAUGE_PERCENTILES) {
                    stats.put("p" + p, s.percentile(p));
                }
            }
            out.add(new ExportedMetric.Entry(t.shown(), s.labels, stats, null));
        }
        return out;
    }

    /** A histogram's {@code _bucket}, {@code _sum} and {@code _count} series, gathered by their other labels. */
    private static List<ExportedMetric.Entry> histograms(final ServerMetricsCollector.Target t, final String family,
                                                         final List<Series> series) {
        final Map<Map<String, String>, Parts> byLabels = new LinkedHashMap<>();
        for (final Series s : series) {
            final Map<String, String> labels = new TreeMap<>(s.labels);
            final String le = labels.remove("le");
            final Parts parts = byLabels.computeIfAbsent(labels, k -> new Parts());
            if (s.name.equals(family + "_bucket")) {
                parts.buckets.put(le == null ? "+Inf" : le, s);
            } else if (s.name.equals(family + "_sum")) {
                parts.sum = s;
            } else if (s.name.equals(family + "_count")) {
                parts.count = s;
            }
        }
        final List<ExportedMetric.Entry> out = new ArrayList<>();
        byLabels.forEach((labels, parts) -> {
            if (parts.sum != null && parts.count != null && parts.count.count() > 0) {
                out.add(histogram(t.shown(), labels, parts));
            }
        });
        return out;
    }

    private static ExportedMetric.Entry histogram(final String url, final Map<String, String> labels,
                                                  final Parts parts) {
        final long count = (long) Math.max(parts.count.delta(), 0);
        final double sum = Math.max(parts.sum.delta(), 0);
        Map<String, Long> buckets = new LinkedHashMap<>();
        for (final Map.Entry<String, Series> b : parts.sortedBuckets()) {
            final double delta = b.getValue().delta();
            if (delta < 0) {
                buckets = null; // the server restarted: its buckets say nothing about the window
                break;
            }
            buckets.put(b.getKey(), (long) delta);
        }
        final Map<String, Number> stats = new LinkedHashMap<>();
        stats.put("count", count);
        if (count > 0) {
            final double seconds = parts.count.seconds();
            stats.put("sum", sum);
            stats.put("avg", sum / count);
            if (seconds > 0) {
                stats.put("count_rate", count / seconds);
                stats.put("sum_rate", sum / seconds);
            }
            if (buckets != null && !buckets.isEmpty()) {
                stats.putAll(BucketPercentiles.estimate(buckets, sum, count));
            }
        }
        return new ExportedMetric.Entry(url, labels, stats, buckets);
    }

    /** The series of one histogram label set. */
    private static final class Parts {
        final Map<String, Series> buckets = new LinkedHashMap<>();
        Series sum;
        Series count;

        /** By upper bound, {@code +Inf} last. */
        List<Map.Entry<String, Series>> sortedBuckets() {
            final List<Map.Entry<String, Series>> out = new ArrayList<>(buckets.entrySet());
            out.sort(Comparator.comparingDouble(e -> BucketPercentiles.bound(e.getKey())));
            return out;
        }
    }
}
