package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.summary.AggregateCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sweep's points side by side on the console, after a sweep and after {@code aggregate}: one row per point
 * with its throughputs and latencies (the trials' mean when there are trials), the Pareto-optimal points starred.
 */
public final class SweepTable {
    /**
     * A column: its heading, the {@code <tag>_<stat>} key it shows, and whether it counts things (printed as an
     * integer, or with one decimal when a mean over trials falls between two).
     */
    private record Column(String heading, String key, boolean count) {
        Column(final String heading, final String key) {
            this(heading, key, false);
        }

        String format(final double v) {
            if (!count) {
                return String.format(Locale.ROOT, "%.2f", v);
            }
            return v == Math.rint(v) ? String.format(Locale.ROOT, "%d", (long) v) : String.format(Locale.ROOT, "%.1f", v);
        }
    }

    private static final List<Column> COLUMNS = List.of(
            new Column("req/s", "request_throughput_avg"),
            new Column("out tok/s", "output_token_throughput_avg"),
            new Column("TTFT p50 ms", "time_to_first_token_p50"),
            new Column("TTFT p99 ms", "time_to_first_token_p99"),
            new Column("ITL p50 ms", "inter_token_latency_p50"),
            new Column("latency p50 ms", "request_latency_p50"),
            new Column("latency p99 ms", "request_latency_p99"),
            new Column("errors", "error_request_count_avg", true));

    private SweepTable() {
    }

    public static String render(final List<SweepAggregator.Point> points) {
        final List<SweepAggregator.Point> pareto = SweepAggregator.pareto(points,
                points.stream().anyMatch(p -> p.metrics().has("time_to_first_token_p99"))
                        ? "time_to_first_token_p99" : "request_latency_p99");
        final List<Column> shown = COLUMNS.stream()
                .filter(c -> points.stream()
                        .anyMatch(p -> p.metrics().path(c.key()).path(AggregateCodec.MEAN).isNumber()))
                .toList();
        final List<List<String>> rows = new ArrayList<>();
        final List<String> head = new ArrayList<>(List.of("  point"));
        shown.forEach(c -> head.add(c.heading()));
        rows.add(head);
        for (final SweepAggregator.Point p : points) {
            final List<String> row = new ArrayList<>(List.of((pareto.contains(p) ? "* " : "  ") + p.label()));
            for (final Column c : shown) {
                final JsonNode v = p.metrics().path(c.key()).path(AggregateCodec.MEAN);
                row.add(v.isNumber() ? c.format(v.doubleValue()) : "-");
            }
            rows.add(row);
        }
        final int[] width = new int[head.size()];
        rows.forEach(r -> {
            for (int i = 0; i < r.size(); i++) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        });
        final StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "Sweep: %d points (* Pareto-optimal: no other point has both more throughput and lower latency)%n",
                points.size()));
        for (final List<String> r : rows) {
            for (int i = 0; i < r.size(); i++) {
                sb.append(String.format(i == 0 ? "%-" + width[0] + "s" : "  %" + width[i] + "s", r.get(i)));
            }
            sb.append(System.lineSeparator());
        }
        return sb.toString();
    }
}
