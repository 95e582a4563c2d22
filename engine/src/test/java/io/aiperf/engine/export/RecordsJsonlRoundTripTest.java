package io.aiperf.engine.export;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.metrics.MetricSpec;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.metrics.RecordMetricsJsonl;
import io.aiperf.engine.record.ErrorDetails;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;
import io.aiperf.engine.record.Usage;
import io.aiperf.engine.summary.JsonLineWriter;
import io.aiperf.engine.summary.RecordCodec;
import io.aiperf.engine.summary.RecordLine;
import io.aiperf.engine.time.WallClock;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Lines written by the real records writer, read back by {@link RecordCodec}: every metadata field, every metric (in
 * the catalogue's display value and unit), the HTTP trace and the error come back as written, for a streamed, a
 * non-streamed, a failed and a cancelled request; and the codec writes each line again to the same JSON.
 */
class RecordsJsonlRoundTripTest {
    private static final long T = 5_000_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private final WallClock wall = new WallClock(System::nanoTime);

    /** Streamed, with usage and reasoning, a retry, a redirect, a connect, a scheduled start and a requested OSL. */
    private static RequestRecord streamed(final TransportTimes.Wire wire) {
        final long[] chunks = new long[40];
        for (int i = 0; i < chunks.length; i++) {
            chunks[i] = T + 50_000_000L + i * 20_034_567L;
        }
        return new RequestRecord("profiling", true, 3, "id-1", "corr-1", "conv-1", 2, "m", 1_700_000_000_123_456_789L,
                550, 64, new ResponseData(T, T + 1_000, chunks, chunks.length, 1, "tok ".repeat(40), "thinking",
                new Usage(550, 40, 590, 7, 128), null, 2, new TransportTimes(T - 3_000_000, T - 2_000_000, T - 1_000_000,
                true, 1, false, wire)), false, T - 4_000_000, null, -1, 0);
    }

    /** A plain JSON answer (no stream), no usage, no requested OSL. */
    private static RequestRecord whole() {
        return new RequestRecord("profiling", true, 0, "id-2", "corr-2", "conv-2", 0, "m", 1_700_000_000_000_000_000L,
                16, null, new ResponseData(T, T + 241_703, new long[] {T + 241_703}, 1, 0, "one two", null, null,
                null, 0, TransportTimes.NONE, false), false, -1, null, -1, 0);
    }

    /** A 503 with a message that needs escapes, odd ids, a requested OSL and a known end. */
    private static RequestRecord failed() {
        return new RequestRecord("profiling", true, 7, "id-\"3\"", "corr-\u00e9\uD83D\uDE00", "conv\t3", 1, "m",
                1_700_000_000_000_000_001L, 9, 5, ResponseData.failed(T, new ErrorDetails(503, "ServerError",
                "line one\nline \"two\" \\ caf\u00e9 \u2028")), false, -1, null, -1, 0, T + 7_000_000);
    }

    /** Cancelled as asked after some content, without a code. */
    private static RequestRecord cancelled() {
        return new RequestRecord("profiling", true, 1, "id-4", "corr-4", "conv-4", 0, "m", 1_700_000_000_000_000_002L,
                9, 5, new ResponseData(T, T + 10, new long[] {T + 20}, 1, 0, "partial", null, null,
                new ErrorDetails(null, "RequestCancellationError", "cancelled after 0.5 s"), 0, TransportTimes.NONE),
                true, -1, null, T + 500_000_000L, 0);
    }

    private record Written(RequestRecord request, RecordMetrics metrics, String line) {
    }

    private List<Written> write(final boolean httpTrace, final List<RequestRecord> records) throws Exception {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final List<RecordMetrics> metrics = new ArrayList<>();
        try (RecordsJsonlWriter w = new RecordsJsonlWriter(out, wall)) {
            w.traceHttp(httpTrace);
            for (final RequestRecord r : records) {
                final RecordMetrics m = RecordMetrics.of(r, r.response().streamed(), r.response().usage() != null,
                        Tokenizer.builtin());
                metrics.add(m);
                w.write(r, m);
            }
        }
        final List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(records.size());
        final List<Written> all = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            all.add(new Written(records.get(i), metrics.get(i), lines.get(i)));
        }
        return all;
    }

    @Test
    void everyKindOfRecordComesBackFieldForField() throws Exception {
        final List<Written> lines = write(false, List.of(streamed(TransportTimes.Wire.NONE), whole(), failed(),
                cancelled()));
        assertThat(lines.get(0).metrics().usageCacheReadTokens()).isEqualTo(128);
        final RecordLine s = RecordCodec.read(lines.get(0).line());
        assertThat(s.metadata()).isEqualTo(new RecordLine.Metadata(3, "id-1", "corr-1", "conv-1", 2,
                1_700_000_000_123_456_789L, wall.toEpochNanos(T - 4_000_000), 1_000_000, 1_000_000, true, 1, 2, 64,
                wall.toEpochNanos(T + 1_000), wall.toEpochNanos(T + 50_000_000L + 39 * 20_034_567L), "worker_0",
                "record_processor_0", "profiling", false, -1, Map.of()));
        assertThat(s.error()).isNull();
        assertThat(s.traceData()).isNull();
        assertThat(s.extra()).isEmpty();
        assertThat(s.metrics()).isEqualTo(expectedMetrics(lines.get(0).metrics()));
        // hand-computed: the first gap between chunks, and the request latency from the write to the last chunk
        assertThat(s.metric(MetricRegistry.ICL.tag()).list()).hasSize(39).first().isEqualTo(20.034567);
        assertThat(s.metric(MetricRegistry.REQUEST_LATENCY.tag()).value()).isEqualTo(831.348113);
        assertThat(s.metric(MetricRegistry.USAGE_REASONING.tag()).value()).isEqualTo(7L);

        final RecordLine w = RecordCodec.read(lines.get(1).line());
        assertThat(w.metadata()).isEqualTo(new RecordLine.Metadata(0, "id-2", "corr-2", "conv-2", 0,
                1_700_000_000_000_000_000L, -1, -1, -1, false, 0, 0, -1, wall.toEpochNanos(T + 241_703),
                wall.toEpochNanos(T + 241_703), "worker_0", "record_processor_0", "profiling", false, -1, Map.of()));
        assertThat(w.metrics()).isEqualTo(expectedMetrics(lines.get(1).metrics()));
        assertThat(w.metric(MetricRegistry.REQUEST_LATENCY.tag()).value()).isEqualTo(0.241703);
        assertThat(w.metrics()).doesNotContainKeys(MetricRegistry.TTFT.tag(), MetricRegistry.ICL.tag());

        final RecordLine f = RecordCodec.read(lines.get(2).line());
        assertThat(f.metadata()).isEqualTo(new RecordLine.Metadata(7, "id-\"3\"", "corr-\u00e9\uD83D\uDE00",
                "conv\t3", 1, 1_700_000_000_000_000_001L, -1, -1, -1, false, 0, 0, 5, -1,
                wall.toEpochNanos(T + 7_000_000), "worker_0", "record_processor_0", "profiling", false, -1, Map.of()));
        assertThat(f.error()).isEqualTo(new RecordLine.Error(503, "ServerError",
                "line one\nline \"two\" \\ caf\u00e9 \u2028"));
        assertThat(f.metrics()).isEqualTo(Map.of(MetricRegistry.ERROR_ISL.tag(),
                new RecordLine.Metric(9L, null, "tokens")));

        final RecordLine c = RecordCodec.read(lines.get(3).line());
        assertThat(c.metadata()).isEqualTo(new RecordLine.Metadata(1, "id-4", "corr-4", "conv-4", 0,
                1_700_000_000_000_000_002L, -1, -1, -1, false, 0, 0, 5, wall.toEpochNanos(T + 10),
                wall.toEpochNanos(T + 20), "worker_0", "record_processor_0", "profiling", true,
                wall.toEpochNanos(T + 500_000_000L), Map.of()));
        assertThat(c.error()).isEqualTo(new RecordLine.Error(null, "RequestCancellationError",
                "cancelled after 0.5 s"));

        for (final Written line : lines) {
            assertWrittenAgainAsRead(line.line());
        }
    }

    /** The metrics the pooled summary is computed from come back as measured, the requested output length included. */
    @Test
    void theMetricsReadBackAreTheMeasuredOnes() throws Exception {
        for (final Written line : write(false, List.of(streamed(TransportTimes.Wire.NONE), whole(), failed(),
                cancelled()))) {
            final RecordMetrics m = line.metrics();
            final RecordMetrics back = RecordMetricsJsonl.read(RecordCodec.read(line.line()));
            assertThat(back.valid()).isEqualTo(m.valid());
            assertThat(back.sessionNum()).isEqualTo(m.sessionNum());
            assertThat(back.startEpochNanos()).isEqualTo(m.startEpochNanos());
            assertThat(back.error()).isEqualTo(m.error());
            if (m.valid()) {
                assertSame(back.latencyNanos(), m.latencyNanos());
                assertSame(back.ttftNanos(), m.ttftNanos());
                assertSame(back.itlNanos(), m.itlNanos());
                assertThat(back.iclNanos()).isEqualTo(m.iclNanos());
                assertThat(back.isl()).isEqualTo(m.isl());
                assertThat(back.osl()).isEqualTo(m.osl());
                assertThat(back.outputTokens()).isEqualTo(m.outputTokens());
                assertThat(back.reasoningTokens()).isEqualTo(m.reasoningTokens());
                assertThat(back.serverOutputTokens()).isEqualTo(m.serverOutputTokens());
                assertThat(back.usagePromptTokens()).isEqualTo(m.usagePromptTokens());
                assertThat(back.usageTotalTokens()).isEqualTo(m.usageTotalTokens());
                assertThat(back.usageCacheReadTokens()).isEqualTo(m.usageCacheReadTokens());
                assertThat(back.requestedOsl()).isEqualTo(m.requestedOsl())
                        .isEqualTo(line.request().requestedOsl() == null ? -1 : line.request().requestedOsl());
            } else {
                assertThat(back.isl()).isEqualTo(m.isl());
            }
        }
    }

    /** Equal doubles, NaN (not measured) equal to NaN. */
    private static void assertSame(final double actual, final double expected) {
        assertThat(Double.doubleToLongBits(actual)).as("%s against %s", actual, expected)
                .isEqualTo(Double.doubleToLongBits(expected));
    }

    /**
     * Each record whose answer the transport timed carries upstream's http_req_* metrics, with or without
     * --export-http-trace (which adds trace_data); they come back as measured, for a merged cell's summary.
     */
    @Test
    void theHttpTraceComesBack() throws Exception {
        // issued T-3 ms, connect T-2..T-1 ms, write T..T+500 ns, body T+2 us..T+900 ms in 3 reads
        final TransportTimes.Wire wire = new TransportTimes.Wire(200, "OK", T + 2_000, T + 900_000_000L, 4_096, 3,
                T + 500, 1_536, true);
        for (final boolean trace : new boolean[] {false, true}) {
            final Written written = write(trace, List.of(streamed(wire))).get(0);
            final RecordLine r = RecordCodec.read(written.line());
            assertThat(r.metrics()).isEqualTo(expectedMetrics(written.metrics()));
            final Map<String, RecordLine.Metric> expected = new LinkedHashMap<>();
            expected.put("http_req_blocked", new RecordLine.Metric(1.0, null, "ms"));
            expected.put("http_req_dns_lookup", new RecordLine.Metric(0.0, null, "ms"));
            expected.put("http_req_connecting", new RecordLine.Metric(1.0, null, "ms"));
            expected.put("http_req_sending", new RecordLine.Metric(0.0005, null, "ms"));
            expected.put("http_req_waiting", new RecordLine.Metric(0.0015, null, "ms"));
            expected.put("http_req_receiving", new RecordLine.Metric(899.998, null, "ms"));
            expected.put("http_req_connection_reused", new RecordLine.Metric(0L, null, "ratio"));
            expected.put("http_req_data_sent", new RecordLine.Metric(1.5, null, "KB"));
            expected.put("http_req_chunks_sent", new RecordLine.Metric(1L, null, "count"));
            expected.put("http_req_data_received", new RecordLine.Metric(4.0, null, "KB"));
            expected.put("http_req_chunks_received", new RecordLine.Metric(3L, null, "count"));
            expected.put("http_req_connection_overhead", new RecordLine.Metric(2.0, null, "ms"));
            expected.put("http_req_duration", new RecordLine.Metric(900.0, null, "ms"));
            expected.put("http_req_total", new RecordLine.Metric(902.0, null, "ms"));
            assertThat(r.metrics()).containsAllEntriesOf(expected);
            final RecordMetrics back = RecordMetricsJsonl.read(r);
            assertThat(back.http()).isEqualTo(written.metrics().http());
            assertThat(r.traceData() != null).isEqualTo(trace);
            if (trace) {
                assertThat(r.traceData().path("response_status_code").asInt()).isEqualTo(200);
                assertThat(r.traceData().path("response_reason").asText()).isEqualTo("OK");
                assertThat(r.traceData().path("response_bytes").asLong()).isEqualTo(4_096);
                assertThat(r.traceData().path("tcp_connect_start_ns").asLong())
                        .isEqualTo(wall.toEpochNanos(T - 2_000_000));
                assertThat(r.traceData().path("request_send_end_ns").asLong()).isEqualTo(wall.toEpochNanos(T + 500));
                assertThat(r.traceData().path("waiting_ns").asLong()).isEqualTo(1_500);
                assertThat(r.traceData().path("retried").asBoolean()).isTrue();
            }
            assertWrittenAgainAsRead(written.line());
        }
    }

    /** The line the codec writes from what it read is the same JSON (same fields, same values, same order). */
    private static void assertWrittenAgainAsRead(final String line) throws Exception {
        final ByteArrayOutputStream again = new ByteArrayOutputStream();
        try (JsonLineWriter g = new JsonLineWriter(again)) {
            RecordCodec.writeLine(g, RecordCodec.read(line));
        }
        final String rewritten = again.toString(StandardCharsets.UTF_8).stripTrailing();
        final JsonNode original = JSON.readTree(line);
        assertThat(JSON.readTree(rewritten)).isEqualTo(original);
        assertThat(fieldOrder(JSON.readTree(rewritten))).isEqualTo(fieldOrder(original));
        assertThat(RecordCodec.read(rewritten)).isEqualTo(RecordCodec.read(line));
    }

    private static List<String> fieldOrder(final JsonNode n) {
        final List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(k -> {
            out.add(k);
            if (n.get(k).isObject()) {
                fieldOrder(n.get(k)).forEach(sub -> out.add(k + "." + sub));
            }
        });
        return out;
    }

    /** Each catalogue metric the request has, in its display value (whole ones as whole numbers) and unit. */
    private static Map<String, RecordLine.Metric> expectedMetrics(final RecordMetrics m) {
        final Map<String, RecordLine.Metric> out = new LinkedHashMap<>();
        for (final MetricSpec spec : MetricRegistry.PER_RECORD) {
            final double v = spec.displayValue(m);
            if (Double.isFinite(v)) {
                out.put(spec.tag(), new RecordLine.Metric(spec.whole() ? (Number) (long) v : (Number) v, null,
                        spec.unit()));
            }
        }
        if (m.iclNanos() != null) {
            final List<Number> icl = new ArrayList<>();
            for (final double v : m.iclNanos()) {
                icl.add(v / 1e6);
            }
            out.put(MetricRegistry.ICL.tag(), new RecordLine.Metric(null, icl, MetricRegistry.ICL.unit()));
        }
        return out;
    }
}
