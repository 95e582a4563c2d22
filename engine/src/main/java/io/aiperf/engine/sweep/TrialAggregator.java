package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.math.SpecialFunctions;
import io.aiperf.engine.summary.AggregateCodec;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.ExportFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Confidence aggregation over trials (AIPerf's multi-run and sweep docs): inputs are the per-trial summary statistics, keyed
 * {@code <tag>_<stat>}; for each key the mean, sample std, min, max, cv, standard error and the Student-t
 * interval at the configured level; one successful trial stands alone ({@code single_run}). Stateless.
 */
public final class TrialAggregator {
    /** The aggregate's schema, as upstream AIPerf 0.13 numbers it. */
    static final String SCHEMA_VERSION = "1.0";

    public static final String FILE = ExportFiles.AGGREGATE_JSON;
    /** The statistics aggregated, in upstream's order (a summary's {@code count} is not among them). */
    static final List<String> STAT_KEYS = List.of(AggregateCodec.AVG, AggregateCodec.MIN, AggregateCodec.MAX,
            AggregateCodec.SUM, "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", AggregateCodec.STD);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One trial's summary, or its error. */
    public record Trial(String label, CellSummary summary, String error) {
    }

    private TrialAggregator() {
    }

    /**
     * The sweep point a trial aggregate belongs to, as upstream names it in the aggregate's metadata.
     *
     * @param variationValues dotted parameter path to value
     * @param model the first model's name, or null
     */
    public record PointMetadata(String variationLabel, Map<String, Object> variationValues, String sweepMode,
                                String model) {
    }

    /** @throws IllegalArgumentException when no trial succeeded */
    public static ObjectNode aggregate(final List<Trial> trials, final double confidenceLevel, final double cooldownSeconds) {
        return aggregate(trials, confidenceLevel, cooldownSeconds, null);
    }

    /**
     * As upstream 0.13 aggregates: one successful trial gives its own values with no spread ({@code single_run});
     * several give the confidence statistics of each {@code <tag>_<stat>}.
     *
     * @param point the sweep point, or null outside a sweep
     * @throws IllegalArgumentException when no trial succeeded
     */
    public static ObjectNode aggregate(final List<Trial> trials, final double confidenceLevel,
                                       final double cooldownSeconds, final PointMetadata point) {
        final List<Trial> ok = trials.stream().filter(t -> t.summary() != null).toList();
        if (ok.isEmpty()) {
            throw new IllegalArgumentException("no trial succeeded (" + trials.size() + " of " + trials.size()
                    + " failed), so there is nothing to aggregate");
        }
        final ObjectNode root = JSON.createObjectNode();
        root.put(AggregateCodec.SCHEMA_VERSION, SCHEMA_VERSION); // as upstream 0.13 heads its aggregate
        root.put(AggregateCodec.AIPERF_VERSION, io.aiperf.engine.run.Version.VALUE);
        final ObjectNode meta = root.putObject(AggregateCodec.METADATA);
        meta.put(AggregateCodec.AGGREGATION_TYPE, AggregateCodec.TYPE_CONFIDENCE);
        meta.put(AggregateCodec.NUM_PROFILE_RUNS, trials.size());
        meta.put(AggregateCodec.NUM_SUCCESSFUL_RUNS, ok.size());
        final ArrayNode failed = meta.putArray(AggregateCodec.FAILED_RUNS);
        trials.stream().filter(t -> t.summary() == null)
                .forEach(t -> failed.addObject().put(AggregateCodec.LABEL, t.label())
                        .put(AggregateCodec.ERROR, t.error()));
        meta.put(AggregateCodec.CONFIDENCE_LEVEL, confidenceLevel);
        final ArrayNode labels = meta.putArray(AggregateCodec.RUN_LABELS);
        ok.forEach(t -> labels.add(t.label()));
        if (ok.size() == 1) {
            meta.put(AggregateCodec.SINGLE_RUN, true);
        }
        meta.put(AggregateCodec.COOLDOWN_SECONDS, cooldownSeconds);
        if (point != null) {
            meta.put(AggregateCodec.VARIATION_LABEL, point.variationLabel());
            final ObjectNode values = meta.putObject(AggregateCodec.VARIATION_VALUES);
            point.variationValues().forEach((k, v) -> values.set(k, JSON.valueToTree(v)));
            meta.put(AggregateCodec.SWEEP_MODE, point.sweepMode());
            if (point.model() != null) {
                meta.put(AggregateCodec.MODEL, point.model());
            }
        }

        final Map<String, List<Double>> values = new LinkedHashMap<>();
        final Map<String, String> units = new LinkedHashMap<>();
        for (final Trial t : ok) {
            t.summary().metrics().forEach((tag, metric) -> {
                for (final String stat : STAT_KEYS) {
                    final Double v = metric.stats().get(stat);
                    if (v != null && Double.isFinite(v)) {
                        final String key = tag + "_" + stat;
                        values.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
                        units.putIfAbsent(key, metric.unit());
                    }
                }
            });
        }
        final ObjectNode metrics = root.putObject(AggregateCodec.METRICS);
        values.forEach((key, v) -> {
            if (ok.size() == 1) {
                metrics.set(key, alone(v.get(0), units.get(key)));
            } else if (v.size() >= 2) {
                metrics.set(key, confidence(v, confidenceLevel, units.get(key)));
            }
        });
        return root;
    }

    /** One trial's value: no spread, the interval collapsed to it, no t (upstream writes null there). */
    private static ObjectNode alone(final double v, final String unit) {
        final ObjectNode o = JSON.createObjectNode();
        o.put(AggregateCodec.MEAN, v);
        o.put(AggregateCodec.STD, 0.0);
        o.put(AggregateCodec.MIN, v);
        o.put(AggregateCodec.MAX, v);
        o.put(AggregateCodec.CV, 0.0);
        o.put(AggregateCodec.SE, 0.0);
        o.put(AggregateCodec.CI_LOW, v);
        o.put(AggregateCodec.CI_HIGH, v);
        o.putNull(AggregateCodec.T_CRITICAL);
        o.put(AggregateCodec.UNIT, unit);
        return o;
    }

    static ObjectNode confidence(final List<Double> v, final double level, final String unit) {
        final int n = v.size();
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (final double d : v) {
            sum += d;
            min = Math.min(min, d);
            max = Math.max(max, d);
        }
        final double mean = sum / n;
        double sq = 0;
        for (final double d : v) {
            sq += (d - mean) * (d - mean);
        }
        final double std = Math.sqrt(sq / (n - 1));
        final double se = std / Math.sqrt(n);
        final double t = SpecialFunctions.studentTQuantile(1 - (1 - level) / 2, n - 1);
        final ObjectNode o = JSON.createObjectNode();
        o.put(AggregateCodec.MEAN, mean);
        o.put(AggregateCodec.STD, std);
        o.put(AggregateCodec.MIN, min);
        o.put(AggregateCodec.MAX, max);
        if (mean != 0) {
            o.put(AggregateCodec.CV, std / Math.abs(mean));
        } else {
            o.putNull(AggregateCodec.CV);
        }
        o.put(AggregateCodec.SE, se);
        o.put(AggregateCodec.T_CRITICAL, t);
        o.put(AggregateCodec.CI_LOW, mean - t * se);
        o.put(AggregateCodec.CI_HIGH, mean + t * se);
        o.put(AggregateCodec.UNIT, unit);
        return o;
    }
}
