package io.aiperf.engine.ci;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.summary.AggregateCodec;
import io.aiperf.engine.summary.CellOutcomeCodec;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.summary.SummaryCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The few numbers a build page, a script and a trend show: TTFT p50/p99, ITL average, request and output-token
 * throughput (AIPerf's tags and units), and the error rate. Read from a cell's summary, or from the trial
 * aggregate's means. Stateless.
 */
public final class KeyMetrics {
    /** Key to (AIPerf tag, statistic). The error rate comes from the outcome counts. */
    public static final List<String> KEYS = List.of("time_to_first_token_p50", "time_to_first_token_p99",
            "inter_token_latency_avg", "request_throughput_avg", "output_token_throughput_avg", "error_rate",
            SearchCapacity.KEY);
    /** Display units of {@link #KEYS}, in order. */
    public static final List<String> UNITS = List.of("ms", "ms", "ms", "requests/sec", "tokens/sec", "%",
            SearchCapacity.UNIT);
    /** The sweep point of a run without a sweep, as the gate and the report name it. */
    public static final String SINGLE_POINT = "base";
    static final String SUMMARY = ExportFiles.SUMMARY_JSON;
    static final String SWEEP = ExportFiles.SWEEP_FOLDER + "/" + ExportFiles.SWEEP_JSON;
    /** Where a sweep with trials run in rounds keeps it, as upstream does. */
    static final String SWEEP_WITH_TRIALS = ExportFiles.AGGREGATE_FOLDER + "/" + SWEEP;
    static final String AGGREGATE = ExportFiles.AGGREGATE_FOLDER + "/" + ExportFiles.AGGREGATE_JSON;
    private static final ObjectMapper JSON = new ObjectMapper();

    private KeyMetrics() {
    }

    /**
     * A run directory's key metrics: its own summary (one cell) or its trial aggregate's means, and the capacity
     * of a capacity search; empty for a sweep, whose cells each have their own.
     *
     * @param errorRatePct the error share in percent, or NaN when unknown
     */
    public static Map<String, Double> of(final Path runDir, final double errorRatePct) {
        final Map<String, Double> out = new LinkedHashMap<>();
        final JsonNode file = read(runDir.resolve(SUMMARY));
        final CellSummary summary = file == null ? null : SummaryCodec.read(file);
        final JsonNode aggregate = summary == null ? read(runDir.resolve(AGGREGATE)) : null;
        for (final String key : KEYS.subList(0, KEYS.indexOf("error_rate"))) {
            final int cut = key.lastIndexOf('_');
            final JsonNode mean = aggregate == null ? null
                    : aggregate.path(AggregateCodec.METRICS).path(key).path(AggregateCodec.MEAN);
            final double v = summary != null ? summary.stat(key.substring(0, cut), key.substring(cut + 1))
                    : mean != null && mean.isNumber() ? mean.doubleValue() : Double.NaN;
            if (!Double.isNaN(v)) {
                out.put(key, v);
            }
        }
        final SearchCapacity capacity = SearchCapacity.in(runDir);
        if (capacity != null && capacity.value() != null) {
            out.put(SearchCapacity.KEY, capacity.value().doubleValue());
        }
        if (!out.isEmpty() && Double.isFinite(errorRatePct)) {
            out.put("error_rate", errorRatePct);
        }
        return out;
    }

    /** A run directory's key metrics, the error rate counted over all its cells. */
    public static Map<String, Double> ofRun(final Path runDir) {
        long valid = 0;
        long errors = 0;
        for (final Path file : OutcomeClassifier.outcomeFiles(runDir)) {
            final JsonNode o = read(file);
            if (o != null) {
                valid += o.path(CellOutcomeCodec.COUNTS).path(CellOutcomeCodec.VALID).asLong();
                errors += o.path(CellOutcomeCodec.COUNTS).path(CellOutcomeCodec.ERRORS).asLong();
            }
        }
        return of(runDir, errorRate(valid, errors));
    }

    /**
     * A run directory's key metrics per sweep point, points in numeric order: a sweep's from its sweep aggregate
     * (the means over each point's trials), the error rate over each point's cells; a run without a sweep is the
     * one point {@link #SINGLE_POINT}. Empty when nothing is recorded.
     */
    public static Map<String, Map<String, Double>> byPoint(final Path runDir) {
        final Map<String, Map<String, Double>> out = new java.util.TreeMap<>(NaturalOrder.COMPARATOR);
        final JsonNode atTop = read(runDir.resolve(SWEEP));
        final JsonNode sweep = atTop != null ? atTop : read(runDir.resolve(SWEEP_WITH_TRIALS));
        if (sweep == null) {
            final Map<String, Double> one = ofRun(runDir);
            if (!one.isEmpty()) {
                out.put(SINGLE_POINT, one);
            }
            return out;
        }
        final Map<String, long[]> counts = new java.util.HashMap<>();
        for (final Path file : OutcomeClassifier.outcomeFiles(runDir)) {
            final JsonNode o = read(file);
            final JsonNode variation = o == null ? null
                    : o.path(CellOutcomeCodec.CELL).path(CellOutcomeCodec.VARIATION);
            if (variation != null && variation.isTextual()) {
                final long[] c = counts.computeIfAbsent(variation.asText(), k -> new long[2]);
                c[0] += o.path(CellOutcomeCodec.COUNTS).path(CellOutcomeCodec.VALID).asLong();
                c[1] += o.path(CellOutcomeCodec.COUNTS).path(CellOutcomeCodec.ERRORS).asLong();
            }
        }
        for (final JsonNode point : sweep.path(AggregateCodec.PER_COMBINATION_METRICS)) {
            final Map<String, Double> m = new LinkedHashMap<>();
            for (final String key : KEYS.subList(0, KEYS.indexOf("error_rate"))) {
                final JsonNode v = pointStat(point.path(AggregateCodec.METRICS), key);
                if (v.isNumber()) {
                    m.put(key, v.doubleValue());
                }
            }
            final long[] c = counts.get(point.path(AggregateCodec.LABEL).asText());
            if (!m.isEmpty() && c != null && Double.isFinite(errorRate(c[0], c[1]))) {
                m.put("error_rate", errorRate(c[0], c[1]));
            }
            if (!m.isEmpty()) {
                out.put(point.path(AggregateCodec.LABEL).asText(), m);
            }
        }
        return out;
    }

    /**
     * A {@code <tag>_<stat>} of a sweep point: the mean over its trials ({@code metrics.<tag>_<stat>.mean}), or
     * without trials the statistic itself ({@code metrics.<tag>.<stat>}).
     */
    static JsonNode pointStat(final JsonNode metrics, final String key) {
        final JsonNode overTrials = metrics.path(key).path(AggregateCodec.MEAN);
        if (overTrials.isNumber()) {
            return overTrials;
        }
        final int cut = key.lastIndexOf('_');
        return metrics.path(key.substring(0, cut)).path(key.substring(cut + 1));
    }

    /** The error share in percent, NaN without requests. */
    static double errorRate(final long valid, final long errors) {
        return valid + errors == 0 ? Double.NaN : 100.0 * errors / (valid + errors);
    }

    /** The unit of a key of {@link #KEYS}, or "" for another key. */
    public static String unit(final String key) {
        final int i = KEYS.indexOf(key);
        return i < 0 ? "" : UNITS.get(i);
    }

    static JsonNode read(final Path file) {
        try {
            return Files.isRegularFile(file) ? JSON.readTree(file.toFile()) : null;
        } catch (IOException e) {
            return null;
        }
    }
}
