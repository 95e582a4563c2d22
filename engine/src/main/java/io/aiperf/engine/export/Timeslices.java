package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.metrics.MetricValue;
import io.aiperf.engine.metrics.MetricsAccumulator;
import io.aiperf.engine.metrics.MetricsSummary;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.metrics.RecordMetricsJsonl;
import io.aiperf.engine.metrics.Stats;
import io.aiperf.engine.metrics.SweepLine;
import io.aiperf.engine.summary.RecordCodec;
import io.aiperf.engine.summary.RecordLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Timeslices (AIPerf's {@code --slice-duration}, src-docs/exports.md): the profiling window cut into windows of equal
 * length from the first request's start, each request counted in the window it started in, and each window's metrics
 * computed as a run's are, with the window's length as the rate denominator. Read back from
 * {@code profile_export.jsonl}, so a run keeps no per-window state while it runs. Stateless.
 */
public final class Timeslices {
    /** More windows than this would be a page of noise: the slice is too short for the run. */
    static final int MAX_SLICES = 10_000;

    private Timeslices() {
    }

    /** The windows' summaries, in order; an empty list when the records file has no request. */
    public static List<MetricsSummary> compute(final Path records, final double sliceSeconds,
                                               final Map<String, Double> slos) throws IOException {
        final List<RecordLine> lines = new ArrayList<>();
        RecordCodec.forEach(records, lines::add);
        long first = Long.MAX_VALUE;
        for (final RecordLine n : lines) {
            first = Math.min(first, n.metadata().requestStartNs());
        }
        final long width = (long) (sliceSeconds * 1e9);
        final List<MetricsAccumulator> slices = new ArrayList<>();
        final SweepLine whole = new SweepLine(); // every request: one in flight across a window's edge counts in both
        for (final RecordLine n : lines) {
            final int index = (int) Math.min(MAX_SLICES - 1, (n.metadata().requestStartNs() - first) / width);
            while (slices.size() <= index) {
                slices.add(new MetricsAccumulator(slos));
            }
            final RecordMetrics m = RecordMetricsJsonl.read(n);
            slices.get(index).add(m);
            whole.add(m);
        }
        final long[] span = whole.span();
        final List<MetricsSummary> out = new ArrayList<>(slices.size());
        for (int i = 0; i < slices.size(); i++) {
            final MetricsAccumulator a = slices.get(i);
            final MetricsSummary s = a.summary(sliceSeconds);
            a.close();
            if (span == null || a.validCount() + a.errorCount() == 0) {
                out.add(s);
                continue;
            }
            // upstream 0.13: the window's sweep-line metrics, the last window ending with the last request
            final long from = first + i * width;
            final Map<String, MetricValue> metrics = new LinkedHashMap<>(s.metrics());
            whole.putInto(metrics, from, Math.min(from + width, span[1]));
            out.add(new MetricsSummary(metrics, s.validCount(), s.errorCount(), s.errorSummary(),
                    s.minStartEpochNanos(), s.maxEndEpochNanos(), s.tokens()));
        }
        return out;
    }

    /** {@code {"slice_duration", "timeslices": [{"index", "start_s", "end_s", <metric>: {...}}]}}. */
    public static byte[] json(final List<MetricsSummary> slices, final double sliceSeconds) {
        final ObjectNode root = SummaryJsonWriter.JSON.createObjectNode();
        root.put("slice_duration", sliceSeconds);
        final ArrayNode list = root.putArray("timeslices");
        for (int i = 0; i < slices.size(); i++) {
            final ObjectNode s = list.addObject().put("index", i).put("start_s", i * sliceSeconds)
                    .put("end_s", (i + 1) * sliceSeconds);
            SummaryJsonWriter.metrics(s, slices.get(i));
        }
        try {
            return SummaryJsonWriter.JSON.writeValueAsBytes(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One row per window and metric: {@code Timeslice,Metric,avg,min,max,p50,p90,p99,std} (single values: avg). */
    public static byte[] csv(final List<MetricsSummary> slices) {
        final StringBuilder sb = new StringBuilder("Timeslice,Metric,avg,min,max,p50,p90,p99,std\r\n");
        for (int i = 0; i < slices.size(); i++) {
            for (final MetricValue m : slices.get(i).metrics().values()) {
                sb.append(i).append(',').append(SummaryCsvWriter.name(m).contains(",") ? "\""
                        + SummaryCsvWriter.name(m) + "\"" : SummaryCsvWriter.name(m));
                if (m.stats() == null) {
                    sb.append(',').append(Numbers.csv(m.value())).append(",,,,,,").append("\r\n");
                    continue;
                }
                final Stats s = m.stats();
                for (final String c : new String[] {"avg", "min", "max", "p50", "p90", "p99", "std"}) {
                    sb.append(',').append(Numbers.csv(s.get(c)));
                }
                sb.append("\r\n");
            }
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
