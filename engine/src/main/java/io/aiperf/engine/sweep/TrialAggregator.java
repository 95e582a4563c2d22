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
 * interval at the configured level. Stateless.
 */
public final class TrialAggregator {
    /** The aggregate's schema, as upstream AIPerf 0.13 numbers it. */
    static final String SCHEMA_VERSION = "1.0";

    public static final String FILE = ExportFiles.AGGREGATE_JSON;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One trial's summary, or its error. */
    public record Trial(String label, CellSummary summary, String error) {
    }

    private TrialAggregator() {
    }

    /** @throws IllegalArgumentException when fewer than two trials succeeded */
    public static ObjectNode aggregate(final List<Trial> trials, final double confidenceLevel, final double cooldownSeconds) {
        final List<Trial> ok = trials.stream().filter(t -> t.summary() != null).toList();
        if (ok.size() < 2) {
            throw new IllegalArgumentException("Insufficient successful runs for confidence intervals. Got "
                    + ok.size() + " successful run(s), but need at least 2.");
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
        meta.put(AggregateCodec.COOLDOWN_SECONDS, cooldownSeconds);

        final Map<String, List<Double>> values = new LinkedHashMap<>();
        final Map<String, String> units = new LinkedHashMap<>();
        for (final Trial t : ok) {
            t.summary().metrics().forEach((tag, metric) -> metric.stats().forEach((stat, v) -> {
                final String key = tag + "_" + stat;
                values.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
                units.put(key, metric.unit());
            }));
        }
        final ObjectNode metrics = root.putObject(AggregateCodec.METRICS);
        values.forEach((key, v) -> {
            if (v.size() >= 2) {
                metrics.set(key, confidence(v, confidenceLevel, units.get(key)));
            }
        });
        return root;
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
