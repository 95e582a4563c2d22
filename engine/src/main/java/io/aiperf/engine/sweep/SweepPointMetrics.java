package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.summary.AggregateCodec;
import io.aiperf.engine.summary.CellSummary;
import java.util.List;

/**
 * A sweep point's {@code metrics} block in the sweep aggregate, in upstream AIPerf 0.13's two shapes: with trials,
 * the trial aggregate's {@code <tag>_<stat>} keys with their mean, spread and interval; without, each summary metric
 * by its tag with the summary's own statistics beside a mean and a zero spread. Stateless.
 */
final class SweepPointMetrics {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> ACROSS_TRIALS = List.of(AggregateCodec.MEAN, AggregateCodec.STD,
            AggregateCodec.MIN, AggregateCodec.MAX, AggregateCodec.CV, AggregateCodec.CI_LOW, AggregateCodec.CI_HIGH,
            AggregateCodec.UNIT);
    private static final List<String> PERCENTILES = List.of("p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95",
            "p99");

    private SweepPointMetrics() {
    }

    /** With trials: the trial aggregate's metrics, without its standard error and t. */
    static ObjectNode ofAggregate(final JsonNode aggregateMetrics) {
        final ObjectNode out = JSON.createObjectNode();
        aggregateMetrics.properties().forEach(e -> {
            final ObjectNode m = out.putObject(e.getKey());
            ACROSS_TRIALS.forEach(k -> {
                if (e.getValue().has(k)) {
                    m.set(k, e.getValue().get(k));
                }
            });
        });
        return out;
    }

    /** Without trials: one summary's metrics by tag. */
    static ObjectNode ofSummary(final CellSummary summary) {
        final ObjectNode out = JSON.createObjectNode();
        summary.metrics().forEach((tag, metric) -> {
            final double avg = Double.isNaN(metric.stat(AggregateCodec.AVG)) ? 0.0 : metric.stat(AggregateCodec.AVG);
            final ObjectNode m = out.putObject(tag);
            m.put(AggregateCodec.MEAN, avg);
            m.put(AggregateCodec.AVG, avg);
            m.put(AggregateCodec.STD, 0.0); // one run: no spread across runs
            m.put(AggregateCodec.MIN, orElse(metric.stat(AggregateCodec.MIN), avg));
            m.put(AggregateCodec.MAX, orElse(metric.stat(AggregateCodec.MAX), avg));
            m.put(AggregateCodec.CV, 0.0);
            m.put(AggregateCodec.CI_LOW, avg);
            m.put(AggregateCodec.CI_HIGH, avg);
            m.put(AggregateCodec.UNIT, metric.unit());
            for (final String p : PERCENTILES) {
                putIfPresent(m, p, metric.stat(p));
            }
            putIfPresent(m, AggregateCodec.COUNT, metric.stat(AggregateCodec.COUNT));
            putIfPresent(m, AggregateCodec.SUM, metric.stat(AggregateCodec.SUM));
        });
        return out;
    }

    private static double orElse(final double v, final double fallback) {
        return Double.isNaN(v) ? fallback : v;
    }

    private static void putIfPresent(final ObjectNode m, final String key, final double v) {
        if (!Double.isNaN(v)) {
            if (key.equals(AggregateCodec.COUNT) && v == Math.rint(v)) {
                m.put(key, (long) v);
            } else {
                m.put(key, v);
            }
        }
    }
}
