package io.aiperf.engine.export;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.metrics.MetricSpec;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.metrics.RecordMetricsJsonl;
import io.aiperf.engine.record.ErrorDetails;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.time.WallClock;
import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code profile_export.jsonl} (AIPerf's export docs): one line per profiling request, in the order requests
 * completed, {@code {"metadata":{...},"metrics":{tag:{value,unit}},"error":null|{code,type,message}}}. Each line is
 * written as its request is processed, so nothing of a request is kept for the export. Not thread-safe.
 * <p>
 * It is over 400 lines because it writes every field through the generator itself, with no tree per line, which
 * keeps the records path free of per-request allocation.
 */
public final class RecordsJsonlWriter implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    // Names and fixed values encoded once: writing a record is then mostly copying bytes.
    private static final SerializedString METADATA = new SerializedString("metadata");
    private static final SerializedString METRICS = new SerializedString("metrics");
    private static final SerializedString ERROR = new SerializedString("error");
    private static final SerializedString VALUE = new SerializedString("value");
    private static final SerializedString UNIT = new SerializedString("unit");
    private static final SerializedString SESSION_NUM = new SerializedString("session_num");
    private static final SerializedString X_REQUEST_ID = new SerializedString("x_request_id");
    private static final SerializedString X_CORRELATION_ID = new SerializedString("x_correlation_id");
    private static final SerializedString CONVERSATION_ID = new SerializedString("conversation_id");
    private static final SerializedString TURN_INDEX = new SerializedString("turn_index");
    private static final SerializedString REQUEST_START_NS = new SerializedString("request_start_ns");
    private static final SerializedString CREDIT_ISSUED_NS = new SerializedString("credit_issued_ns");
    private static final SerializedString POOL_WAIT_NS = new SerializedString("pool_wait_ns");
    private static final SerializedString CONNECT_NS = new SerializedString("connect_ns");
    private static final SerializedString REQUEST_ACK_NS = new SerializedString("request_ack_ns");
    private static final SerializedString REQUEST_END_NS = new SerializedString("request_end_ns");
    private static final SerializedString WORKER_ID = new SerializedString("worker_id");
    private static final SerializedString WORKER_0 = new SerializedString("worker_0");
    private static final SerializedString RECORD_PROCESSOR_ID = new SerializedString("record_processor_id");
    private static final SerializedString RECORD_PROCESSOR_0 = new SerializedString("record_processor_0");
    private static final SerializedString BENCHMARK_PHASE = new SerializedString("benchmark_phase");
    private static final SerializedString PROFILING = new SerializedString("profiling");
    private static final SerializedString WARMUP = new SerializedString("warmup");
    private static final SerializedString WAS_CANCELLED = new SerializedString("was_cancelled");
    private static final java.util.Map<MetricSpec, SerializedString[]> TAG_AND_UNIT = tagsAndUnits();
    private final OutputStream out;
    private final JsonGenerator g;
    private final OutputStream rawOut;
    private final JsonGenerator raw;
    private final WallClock wall;
    private final char[] digits = new char[32];
    /** Writes warmup records nowhere, through the same code as the file's lines (see {@link #rehearse}). */
    private JsonGenerator rehearsal;
    private OutputStream rehearsalOut;

    private OutputsJson outputs;
    private boolean httpTrace;
    private HttpTraceTable traceTable;

    public RecordsJsonlWriter(final OutputStream out, final WallClock wall) throws IOException {
        this(out, null, wall);
    }

    /** @param rawOut where {@code profile_export_raw.jsonl} goes (request and response of each request), or null */
    public RecordsJsonlWriter(final OutputStream out, final OutputStream rawOut, final WallClock wall)
            throws IOException {
        this.out = out;
        this.wall = wall;
        this.g = generator(out);
        this.rawOut = rawOut;
        this.raw = rawOut == null ? null : generator(rawOut);
    }

    private static JsonGenerator generator(final OutputStream out) throws IOException {
        final JsonGenerator g = JSON.getFactory().createGenerator(out);
        g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
        // Lines go out when the generator's buffer fills, not one write per record: the records file is the
        // largest cost of a fast run after the requests themselves. close() flushes the rest.
        g.configure(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM, false);
        g.configure(com.fasterxml.jackson.core.StreamWriteFeature.USE_FAST_DOUBLE_WRITER.mappedFeature(), true);
        g.setRootValueSeparator(null); // lines start with '{', not with Jackson's default space between root values
        return g;
    }

    /** Also collects each request's generated text for {@code outputs.json} into {@code outputs}. */
    public void collectOutputs(final OutputsJson outputs) {
        this.outputs = outputs;
    }

    /**
     * Upstream's HTTP trace (src-docs/exports.md): with {@code export}, each line also carries its {@code http_req_*}
     * metrics and {@code trace_data}; {@code table}, when not null, collects the profiling requests' timings for the
     * console ({@code --show-trace-timing}).
     */
    public void traceHttp(final boolean export, final HttpTraceTable table) {
        this.httpTrace = export;
        this.traceTable = table;
    }

    /** Writes one request's line (and its raw line). */
    public void write(final RequestRecord r, final RecordMetrics m) throws IOException {
        if (outputs != null) {
            outputs.add(r, m, false);
        }
        if (traceTable != null) {
            traceTable.add(r);
        }
        writeOne(g, r, m, wall, digits);
        g.writeRaw('\n');
        if (raw != null) {
            writeRaw(raw, r, wall);
            raw.writeRaw('\n');
        }
    }

    /**
     * Writes a warmup request's line (and raw line) to nowhere. The records file holds profiling requests only, as
     * AIPerf's does; rehearsing its writing during warmup gets this code compiled before the profiling phase, instead
     * of by the JIT in its first seconds (where it cost a core for about a second on 2 cores).
     */
    public void rehearse(final RequestRecord r, final RecordMetrics m) throws IOException {
        if (outputs != null) {
            outputs.add(r, m, true); // outputs.json keeps the warmup's answers apart, as upstream's
        }
        if (rehearsal == null) {
            rehearsalOut = nowhere();
            rehearsal = generator(rehearsalOut);
        }
        writeOne(rehearsal, r, m, wall, digits);
        rehearsal.writeRaw('\n');
        if (raw != null) {
            writeRaw(rehearsal, r, wall);
            rehearsal.writeRaw('\n');
        }
    }

    /**
     * Where rehearsed lines go: the null device through the same kind of stream as the records file (a buffered
     * file channel), so the JIT compiles the path the profiling records take, down to the file writes. Into a stream
     * that only drops bytes, the profiling phase's first file writes recompiled the records file's code and the
     * socket writes that share {@code IOUtil.write} (bench/RESULTS.md).
     */
    private static OutputStream nowhere() {
        final java.nio.file.Path device = java.nio.file.Path.of("/dev/null");
        if (java.nio.file.Files.isWritable(device)) {
            try {
                return new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(device), 1 << 16);
            } catch (IOException | RuntimeException e) {
                // no such device here: the lines are dropped in memory
            }
        }
        return OutputStream.nullOutputStream();
    }

    @Override
    public void close() throws IOException {
        if (rehearsal != null) {
            rehearsal.close();
            rehearsalOut.close();
        }
        g.close();
        out.flush();
        if (raw != null) {
            raw.close();
            rawOut.flush();
        }
    }

    /** The raw line: the same metadata, the exact request body sent, and what came back (AIPerf's raw export). */
    private static void writeRaw(final JsonGenerator g, final RequestRecord r, final WallClock wall)
            throws IOException {
        final ResponseData d = r.response();
        g.writeStartObject();
        writeMetadata(g, r, wall);
        g.writeFieldName("request");
        if (r.requestBody() != null) {
            g.writeTree(JSON.readTree(r.requestBody()));
        } else {
            g.writeNull();
        }
        g.writeObjectFieldStart("response");
        g.writeStringField("text", d.content());
        if (d.reasoning() != null) {
            g.writeStringField("reasoning", d.reasoning());
        }
        g.writeNumberField("responses", d.contentCount());
        if (d.usage() != null) {
            g.writeObjectFieldStart("usage");
            writeOptional(g, "prompt_tokens", d.usage().promptTokens());
            writeOptional(g, "completion_tokens", d.usage().completionTokens());
            writeOptional(g, "total_tokens", d.usage().totalTokens());
            writeOptional(g, "reasoning_tokens", d.usage().reasoningTokens());
            g.writeEndObject();
        }
        g.writeEndObject();
        writeError(g, d.error());
        g.writeEndObject();
    }

    private static void writeOptional(final JsonGenerator g, final String name, final Integer v) throws IOException {
        if (v != null) {
            g.writeNumberField(name, v);
        }
    }

    private static void writeMetadata(final JsonGenerator g, final RequestRecord r, final WallClock wall)
            throws IOException {
        final ResponseData d = r.response();
        g.writeFieldName(METADATA);
        g.writeStartObject();
        g.writeFieldName(SESSION_NUM);
        g.writeNumber(r.sessionNum());
        g.writeFieldName(X_REQUEST_ID);
        g.writeString(r.xRequestId());
        g.writeFieldName(X_CORRELATION_ID);
        g.writeString(r.xCorrelationId());
        g.writeFieldName(CONVERSATION_ID);
        g.writeString(r.conversationId());
        g.writeFieldName(TURN_INDEX);
        g.writeNumber(r.turnIndex());
        g.writeFieldName(REQUEST_START_NS);
        g.writeNumber(r.startEpochNanos());
        // When the schedule released the request (open loop: its intended time; closed loop: when it was handed to
        // the transport), and how long it then waited for a connection and for a connect before it was written.
        final long credit = r.intendedStartPerfNanos() >= 0 ? r.intendedStartPerfNanos() : d.transport().issuedNanos();
        if (credit >= 0) {
            g.writeFieldName(CREDIT_ISSUED_NS);
            g.writeNumber(wall.toEpochNanos(credit));
        }
        final double poolWait = d.transport().poolWaitNanos(d.startPerfNanos());
        if (!Double.isNaN(poolWait)) {
            g.writeFieldName(POOL_WAIT_NS);
            g.writeNumber((long) poolWait);
        }
        final double connect = d.transport().connectNanos();
        if (!Double.isNaN(connect)) {
            g.writeFieldName(CONNECT_NS);
            g.writeNumber((long) connect);
        }
        if (d.transport().retried()) {
            g.writeBooleanField("retried", true);
        }
        if (d.transport().redirects() > 0) {
            g.writeNumberField("redirects", d.transport().redirects());
        }
        if (d.malformedChunks() > 0) {
            g.writeNumberField("malformed_chunks", d.malformedChunks());
        }
        if (r.requestedOsl() != null) {
            g.writeNumberField(RecordMetricsJsonl.REQUESTED_OUTPUT_TOKENS, r.requestedOsl());
        }
        if (d.ackPerfNanos() >= 0) {
            g.writeFieldName(REQUEST_ACK_NS);
            g.writeNumber(wall.toEpochNanos(d.ackPerfNanos()));
        }
        final long end = r.endNanos(); // a failed or cancelled record's too: upstream's record model requires it
        if (end >= 0) {
            g.writeFieldName(REQUEST_END_NS);
            g.writeNumber(wall.toEpochNanos(end));
        }
        g.writeFieldName(WORKER_ID);
        g.writeString(WORKER_0);
        g.writeFieldName(RECORD_PROCESSOR_ID);
        g.writeString(RECORD_PROCESSOR_0);
        g.writeFieldName(BENCHMARK_PHASE);
        g.writeString(r.profiling() ? PROFILING : WARMUP);
        g.writeFieldName(WAS_CANCELLED);
        g.writeBoolean(r.wasCancelled());
        if (r.cancelPerfNanos() >= 0) {
            g.writeNumberField("cancellation_time_ns", wall.toEpochNanos(r.cancelPerfNanos()));
        }
        g.writeEndObject();
    }

    private static void writeError(final JsonGenerator g, final ErrorDetails e) throws IOException {
        if (e == null) {
            g.writeFieldName(ERROR);
            g.writeNull();
            return;
        }
        g.writeObjectFieldStart("error");
        if (e.code() != null) {
            g.writeNumberField("code", e.code());
        }
        g.writeStringField("type", e.type());
        g.writeStringField("message", e.message());
        g.writeEndObject();
    }

    private void writeOne(final JsonGenerator g, final RequestRecord r, final RecordMetrics m,
                          final WallClock wall, final char[] digits) throws IOException {
        g.writeStartObject();
        writeMetadata(g, r, wall);
        g.writeFieldName(METRICS);
        g.writeStartObject();
        if (m.valid()) {
            for (final MetricSpec spec : MetricRegistry.PER_RECORD) {
                value(g, spec, m, digits);
                if (spec == MetricRegistry.ITL && m.iclNanos() != null) {
                    g.writeObjectFieldStart(MetricRegistry.ICL.tag());
                    g.writeArrayFieldStart("value");
                    for (final double v : m.iclNanos()) {
                        writeMillis(g, v, digits);
                    }
                    g.writeEndArray();
                    g.writeStringField("unit", MetricRegistry.ICL.unit());
                    g.writeEndObject();
                }
            }
        } else if (m.isl() >= 0) {
            g.writeObjectFieldStart("error_isl");
            g.writeNumberField("value", m.isl());
            g.writeStringField("unit", "tokens");
            g.writeEndObject();
        }
        if (httpTrace) {
            HttpTrace.writeMetrics(g, r);
        }
        g.writeEndObject();
        if (httpTrace) {
            HttpTrace.writeTraceData(g, r, wall);
        }
        writeError(g, m.valid() ? null : m.error());
        g.writeEndObject();
    }

    /** One metric in its display unit; token counts as whole numbers; absent values are left out. */
    private static void value(final JsonGenerator g, final MetricSpec spec, final RecordMetrics m, final char[] digits)
            throws IOException {
        final double display = spec.displayValue(m);
        if (Double.isFinite(display)) {
            final SerializedString[] names = TAG_AND_UNIT.get(spec);
            g.writeFieldName(names[0]);
            g.writeStartObject();
            g.writeFieldName(VALUE);
            if (spec.whole()) {
                g.writeNumber((long) display);
            } else if (spec.nanosToDisplay() == NANOS_PER_MILLI) {
                writeMillis(g, spec.perRecord().applyAsDouble(m), digits);
            } else {
                g.writeNumber(display);
            }
            g.writeFieldName(UNIT);
            g.writeString(names[1]);
            g.writeEndObject();
        }
    }

    private static final double NANOS_PER_MILLI = 1e6;

    /**
     * Nanoseconds written as milliseconds. A whole number of nanoseconds (every latency and gap measured here) is
     * written as its exact decimal, which is also the shortest form of the double {@code nanos / 1e6} (as Python
     * prints it: {@code 20.034567}, {@code 0.000123}), from a reused buffer: no allocation for the dozens of chunk
     * gaps of each record. Anything else goes through Jackson.
     */
    static void writeMillis(final JsonGenerator g, final double nanos, final char[] digits) throws IOException {
        if (!(nanos >= 0 && nanos < 1e15 && nanos == Math.rint(nanos))) {
            g.writeNumber(nanos / NANOS_PER_MILLI);
            return;
        }
        final int len = millis((long) nanos, digits);
        g.writeNumber(digits, 0, len);
    }

    /** Writes {@code ns / 1e6} as a decimal into {@code out} ({@code 0 <= ns < 1e15}); returns its length. */
    static int millis(final long ns, final char[] out) {
        long whole = ns / 1_000_000L;
        int frac = (int) (ns % 1_000_000L);
        int len = 0;
        if (whole == 0) {
            out[len++] = '0';
        } else {
            final int start = len;
            while (whole > 0) {
                out[len++] = (char) ('0' + whole % 10);
                whole /= 10;
            }
            for (int i = start, j = len - 1; i < j; i++, j--) {
                final char c = out[i];
                out[i] = out[j];
                out[j] = c;
            }
        }
        out[len++] = '.';
        if (frac == 0) {
            out[len++] = '0';
            return len;
        }
        int places = 6;
        while (frac % 10 == 0) {
            frac /= 10;
            places--;
        }
        for (int i = places - 1; i >= 0; i--) {
            out[len + i] = (char) ('0' + frac % 10);
            frac /= 10;
        }
        return len + places;
    }

    private static java.util.Map<MetricSpec, SerializedString[]> tagsAndUnits() {
        final java.util.Map<MetricSpec, SerializedString[]> m = new java.util.IdentityHashMap<>();
        for (final MetricSpec spec : MetricRegistry.PER_RECORD) {
            m.put(spec, new SerializedString[] {new SerializedString(spec.tag()), new SerializedString(spec.unit())});
        }
        return m;
    }
}
