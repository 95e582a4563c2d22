package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.summary.AggregateCodec;
import io.aiperf.engine.summary.ExportFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code profile_export_aiperf_sweep.json} in upstream AIPerf 0.13's layout (src-docs/exports.md): the run counts,
 * each combination's metrics, the best configurations, and the Pareto-optimal set (maximize request throughput,
 * minimize p99 TTFT, or p99 request latency when there is no TTFT). Stateless.
 */
public final class SweepAggregator {
    public static final String FILE = ExportFiles.SWEEP_JSON;
    private static final String THROUGHPUT = "request_throughput_avg";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One combination.
     *
     * @param metrics {@code <tag>_<stat>} to an object with at least {@code mean} and {@code unit}: what the best
     *                configurations, the Pareto set and the console's table compare
     * @param exported the combination's {@code metrics} block as the file holds it (upstream's shape: by
     *                 {@code <tag>_<stat>} with trials, by {@code <tag>} without)
     */
    public record Point(String label, Map<String, Object> parameters, JsonNode metrics, JsonNode exported) {
    }

    /** A cell that measured nothing, as {@code failed_runs} lists it. */
    public record Failed(String label, String error) {
    }

    private SweepAggregator() {
    }

    /**
     * @param points the points that measured (at least one trial succeeded)
     * @param ran every point that ran, measured or not, in run order: as upstream 0.13, {@code sweep_parameters}
     *            and {@code num_combinations} count a point whose every trial failed, which only
     *            {@code per_combination_metrics} and the best and Pareto choices leave out
     * @param runs every cell of the sweep (trials included); {@code failed} are those among them that measured
     *             nothing
     */
    public static ObjectNode aggregate(final List<Point> points, final List<Map<String, Object>> ran, final int runs,
                                       final List<Failed> failed, final int trialsPerValue,
                                       final double confidenceLevel, final String mode) {
        final ObjectNode root = JSON.createObjectNode();
        root.put(AggregateCodec.AGGREGATION_TYPE, AggregateCodec.TYPE_SWEEP);
        root.put(AggregateCodec.NUM_PROFILE_RUNS, runs);
        root.put(AggregateCodec.NUM_SUCCESSFUL_RUNS, runs - failed.size());
        final ArrayNode failedRuns = root.putArray(AggregateCodec.FAILED_RUNS);
        failed.forEach(f -> failedRuns.addObject().put(AggregateCodec.LABEL, f.label())
                .put(AggregateCodec.ERROR, f.error()));
        final ObjectNode meta = root.putObject(AggregateCodec.METADATA);
        final Map<String, List<Object>> values = parameterValues(ran);
        final ArrayNode params = meta.putArray(AggregateCodec.SWEEP_PARAMETERS);
        values.forEach((name, list) -> {
            final ArrayNode out = params.addObject().put(AggregateCodec.NAME, name).putArray(AggregateCodec.VALUES);
            list.forEach(v -> out.add(JSON.valueToTree(v)));
        });
        // upstream's count: the product of each parameter's distinct values (a zip sweep's grid, not its points)
        meta.put(AggregateCodec.NUM_COMBINATIONS, values.values().stream().mapToLong(List::size)
                .reduce(1, (a, b) -> a * b));
        meta.put(AggregateCodec.SWEEP_MODE, mode);
        meta.put(AggregateCodec.CONFIDENCE_LEVEL, confidenceLevel);
        meta.put(AggregateCodec.NUM_TRIALS_PER_VALUE, trialsPerValue);
        meta.put(AggregateCodec.AGGREGATION_TYPE, AggregateCodec.TYPE_SWEEP); // upstream repeats it here
        final ArrayNode per = root.putArray(AggregateCodec.PER_COMBINATION_METRICS);
        for (final Point p : points) {
            final ObjectNode item = per.addObject();
            item.set(AggregateCodec.PARAMETERS, parameters(p));
            item.set(AggregateCodec.METRICS, p.exported());
            item.put(AggregateCodec.LABEL, p.label()); // ours: the cell directory, which the CI step joins on
        }
        final ObjectNode best = root.putObject(AggregateCodec.BEST_CONFIGURATIONS);
        final String latency = latencyKey(points);
        best(best, AggregateCodec.BEST_THROUGHPUT, points, THROUGHPUT, true);
        best(best, AggregateCodec.BEST_LATENCY_P99, points, latency, false);
        final ArrayNode pareto = root.putArray(AggregateCodec.PARETO_OPTIMAL);
        if (latency != null && everyPointHas(points, THROUGHPUT)) {
            for (final Point p : pareto(points, latency)) {
                pareto.add(parameters(p));
            }
        }
        return root;
    }

    /** Each parameter's distinct values, names and values in first-seen order. */
    private static Map<String, List<Object>> parameterValues(final List<Map<String, Object>> ran) {
        final Map<String, List<Object>> out = new LinkedHashMap<>();
        for (final Map<String, Object> point : ran) {
            point.forEach((name, value) -> {
                final List<Object> list = out.computeIfAbsent(name, k -> new ArrayList<>());
                if (!list.contains(value)) {
                    list.add(value);
                }
            });
        }
        return out;
    }

    /** As upstream: TTFT p99 when every point has it (streaming), else request latency p99 if every point has it. */
    private static String latencyKey(final List<Point> points) {
        for (final String key : List.of("time_to_first_token_p99", "request_latency_p99")) {
            if (everyPointHas(points, key)) {
                return key;
            }
        }
        return null;
    }

    private static boolean everyPointHas(final List<Point> points, final String key) {
        return !points.isEmpty() && points.stream().allMatch(p -> !Double.isNaN(mean(p, key)));
    }

    private static ObjectNode parameters(final Point p) {
        final ObjectNode o = JSON.createObjectNode();
        for (final Map.Entry<String, Object> e : p.parameters().entrySet()) {
            o.set(e.getKey(), JSON.valueToTree(e.getValue()));
        }
        return o;
    }

    private static double mean(final Point p, final String key) {
        final JsonNode m = p.metrics().path(key).path(AggregateCodec.MEAN);
        return m.isNumber() ? m.doubleValue() : Double.NaN;
    }

    private static void best(final ObjectNode into, final String name, final List<Point> points, final String key,
                             final boolean maximize) {
        if (key == null || !everyPointHas(points, key)) {
            return; // as upstream: a best only where every point has the metric
        }
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
            o.put(AggregateCodec.METRIC, mean(best, key));
            o.put(AggregateCodec.UNIT, best.metrics().path(key).path(AggregateCodec.UNIT).asText());
        }
    }

    /** Points no other point beats on both throughput (higher) and latency (lower). */
    static List<Point> pareto(final List<Point> points, final String latencyKey) {
        final List<Point> out = new ArrayList<>();
        for (final Point p : points) {
            final double tp = mean(p, THROUGHPUT);
            final double lat = mean(p, latencyKey);
            if (Double.isNaN(tp) || Double.isNaN(lat)) {
                continue;
            }
            boolean dominated = false;
            for (final Point q : points) {
                final double qtp = mean(q, THROUGHPUT);
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
