package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.metrics.MetricSpec;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.time.WallClock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code outputs.json} (upstream AIPerf's {@code --export-outputs-json}, schema 1.1, src-docs/exports.md): each
 * request's generated text with its ids, times and a few metrics; profiling requests in {@code data}, warmup ones in
 * {@code warmup}, both sorted by session and turn. Held in memory until the cell ends. Not thread-safe.
 */
public final class OutputsJson {
    public static final String FILE = ExportFiles.OUTPUTS_JSON;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final List<MetricSpec> METRICS = List.of(MetricRegistry.ISL, MetricRegistry.OUTPUT_TOKENS,
            MetricRegistry.OSL, MetricRegistry.REQUEST_LATENCY, MetricRegistry.TTFT, MetricRegistry.ITL);
    private static final Comparator<ObjectNode> ORDER = Comparator
            .<ObjectNode>comparingLong(o -> o.path("session_num").asLong())
            .thenComparingLong(o -> o.path("turn_index").asLong());

    private final WallClock wall;
    private final List<ObjectNode> profiling = new ArrayList<>();
    private final List<ObjectNode> warmup = new ArrayList<>();

    public OutputsJson(final WallClock wall) {
        this.wall = wall;
    }

    public void add(final RequestRecord r, final RecordMetrics m, final boolean isWarmup) {
        final ObjectNode o = JSON.createObjectNode();
        o.put("session_num", r.sessionNum());
        o.put("conversation_id", r.conversationId());
        o.put("turn_index", r.turnIndex());
        o.put("x_request_id", r.xRequestId());
        o.put("benchmark_phase", isWarmup ? "warmup" : "profiling");
        o.put("request_start_ns", r.startEpochNanos());
        if (r.endNanos() >= 0) {
            o.put("request_end_ns", wall.toEpochNanos(r.endNanos()));
        }
        final ObjectNode metrics = o.putObject("metrics");
        for (final MetricSpec spec : METRICS) {
            final double v = spec.displayValue(m);
            if (!Double.isNaN(v)) {
                if (spec.whole()) {
                    metrics.put(spec.tag(), (long) v);
                } else {
                    metrics.put(spec.tag(), v);
                }
            }
        }
        final String reasoning = r.response().reasoning();
        final String content = r.response().content();
        final String text = (reasoning == null ? "" : reasoning) + (content == null ? "" : content);
        if (text.isEmpty()) {
            o.putNull("response_text");
        } else {
            o.put("response_text", text);
        }
        (isWarmup ? warmup : profiling).add(o);
    }

    public byte[] bytes() {
        final ObjectNode root = JSON.createObjectNode();
        root.put("schema_version", "1.1");
        final ArrayNode data = root.putArray("data");
        profiling.stream().sorted(ORDER).forEach(data::add);
        final ArrayNode w = root.putArray("warmup");
        warmup.stream().sorted(ORDER).forEach(w::add);
        try {
            return JSON.writeValueAsBytes(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
