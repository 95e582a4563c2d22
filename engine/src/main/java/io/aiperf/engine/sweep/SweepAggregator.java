package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.summary.AggregateCodec;
import io.aiperf.engine.summary.ExportFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code sweep_aggregate/profile_export_aiperf_sweep.json} (AIPerf's multi-run and sweep docs): each combination's metrics, the
 * best configurations, and the Pareto-optimal set (maximize request throughput, minimize p99 TTFT, or p99
 * request latency when there is no TTFT). Stateless.
 */
public final class SweepAggregator {
    public static final String FILE = ExportFiles.SWEEP_JSON;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One combination and its metrics ({@code <tag>_<stat>} to an object with at least {@code mean}). */
    public record Point(String label, Map<String, Object> parameters, JsonNode metrics) {
    }

    private SweepAggregator() {
    }

    public static ObjectNode aggregate(final List<Point> points, final int trialsPerValue, final double confidenceLevel) {
        final ObjectNode root = JSON.createObjectNode();
        final ObjectNode meta = root.putObject(AggregateCodec.METADATA);
        meta.put(AggregateCodec.AGGREGATION_TYPE, AggregateCodec.TYPE_SWEEP);
        final ArrayNode params = meta.putArray(AggregateCodec.SWEEP_PARAMETERS);
        if (!points.isEmpty()) {
            for (final String name : points.get(0).parameters().keySet()) {
                final ArrayNode values = params.addObject().put(AggregateCodec.NAME, name)
                        .putArray(AggregateCodec.VALUES);
                points.stream().map(p -> p.parameters().get(name)).distinct()
                        .forEach(v -> values.addPOJO(v));
            }
        }
        meta.put(AggregateCodec.NUM_COMBINATIONS, points.size());
        meta.put(AggregateCodec.NUM_TRIALS_PER_VALUE, trialsPerValue);
        meta.put(AggregateCodec.SWEEP_MODE, AggregateCodec.MODE_REPEATED);
        meta.put(AggregateCodec.CONFIDENCE_LEVEL, confidenceLevel);
        final ArrayNode per = root.putArray(AggregateCodec.PER_COMBINATION_METRICS);
        for (final Point p : points) {
            final ObjectNode item = per.addObject();
            item.set(AggregateCodec.PARAMETERS, parameters(p));
            item.put(AggregateCodec.LABEL, p.label());
            item.set(AggregateCodec.METRICS, p.metrics());
        }
        final ObjectNode best = root.putObject(AggregateCodec.BEST_CONFIGURATIONS);
        best(best, AggregateCodec.BEST_THROUGHPUT, points, "request_throughput_avg", true);
        best(best, AggregateCodec.BEST_LATENCY_P99, points, latencyKey(points), false);
        final ArrayNode pareto = root.putArray(AggregateCodec.PARETO_OPTIMAL);
        for (final Point p : pareto(points, latencyKey(points))) {
            pareto.add(parameters(p));
        }
        return root;
    }

    private static String latencyKey(final List<Point> points) {
        return points.stream().anyMatch(p -> p.metrics().has("time_to_first_token_p99"))
                ? "time_to_first_token_p99" : "request_latency_p99";
    }

    private static ObjectNode parameters(final Point p) {
        final ObjectNode o = JSON.createObjectNode();
        for (final Map.Entry<String, Object> e : p.parameters().entrySet()) {
            o.putPOJO(e.getKey(), e.getValue());
        }
        return o;
    }

    private static double mean(final Point p, final String key) {
        final JsonNode m = p.metrics().path(key).path(AggregateCodec.MEAN);
        return m.isNumber() ? m.doubleValue() : Double.NaN;
    }

    private static void best(final ObjectNode into, final String name, final List<Point> points, final String key,
                             final boolean maximize) {
        Point best = null;
        for (final Point p : points) {
            final double v = mean(p, key);
            if (!Double.isNaN(v) && (best == null || (maximize ? v > mean(best, key) : v < mean(best, key)))) {
                best = p;
            }
        }
        if (best != null) {
            final ObjectNode o = into.putObject(name);
            o.set(AggregateCodec.PARAMETERS, parameters(best));
            o.put(AggregateCodec.METRIC, key);
            o.put(AggregateCodec.VALUE, mean(best, key));
            o.put(AggregateCodec.UNIT, best.metrics().path(key).path(AggregateCodec.UNIT).asText());
        }
    }

    /** Points no other point beats on both throughput (higher) and latency (lower). */
    static List<Point> pareto(final List<Point> points, final String latencyKey) {
        final List<Point> out = new ArrayList<>();
        for (final Point p : points) {
            final double tp = mean(p, "request_throughput_avg");
            final double lat = mean(p, latencyKey);
            if (Double.isNaN(tp) || Double.isNaN(lat)) {
                continue;
            }
            boolean dominated = false;
            for (final Point q : points) {
                final double qtp = mean(q, "request_throughput_avg");
                final double qlat = mean(q, latencyKey);
                if (q != p && qtp >= tp && qlat <= lat && (qtp > tp || qlat < lat)) {
                    dominated = true;
                    break;
                }
            }
            if (!dominated) {
                out.add(p);
            }
        }
        return out;
    }
}
