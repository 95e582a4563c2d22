package io.aiperf.engine.export;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.metrics.MetricSpec;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.record.ErrorDetails;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.summary.RecordCodec;
import io.aiperf.engine.time.WallClock;
import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code profile_export.jsonl} (AIPerf's export docs): one line per profiling request, in the order requests
 * completed, in {@link RecordCodec}'s keys and shape. Each line is written as its request is processed, straight from
 * the request through the codec's pieces (no tree, no value per line), so nothing of a request is kept for the export
 * and the records path stays free of per-request allocation. Not thread-safe.
 */
public final class RecordsJsonlWriter implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final java.util.Map<MetricSpec, SerializedString[]> TAG_AND_UNIT = tagsAndUnits();
    private final OutputStream out;
    private final JsonGenerator g;
    private final OutputStream rawOut;
    private final JsonGenerator raw;
    private final WallClock wall;
    private final char[] digits = new char[32];
    /** The metadata of the record being written, as the codec reads it: one view, reused for every record. */
    private final LiveMetadata metadata;
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
        this.metadata = new LiveMetadata(wall);
    }

    private static JsonGenerator generator(final OutputStream out) throws IOException {
        final JsonGenerator g = RecordCodec.generator(out);
        // Lines go out when the generator's buffer fills, not one write per record: the records file is the
        // largest cost of a fast run after the requests themselves. close() flushes the rest.
        g.configure(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM, false);
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
        writeOne(g, r, m, digits);
        g.writeRaw('\n');
        if (raw != null) {
            writeRaw(raw, r);
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
        writeOne(rehearsal, r, m, digits);
        rehearsal.writeRaw('\n');
        if (raw != null) {
            writeRaw(rehearsal, r);
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
    private void writeRaw(final JsonGenerator g, final RequestRecord r) throws IOException {
        final ResponseData d = r.response();
        g.writeStartObject();
        RecordCodec.writeMetadata(g, metadata.of(r));
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

    private static void writeError(final JsonGenerator g, final ErrorDetails e) throws IOException {
        if (e == null) {
            RecordCodec.writeNoError(g);
        } else {
            RecordCodec.writeError(g, e.code(), e.type(), e.message());
        }
    }

    private void writeOne(final JsonGenerator g, final RequestRecord r, final RecordMetrics m, final char[] digits)
            throws IOException {
        g.writeStartObject();
        RecordCodec.writeMetadata(g, metadata.of(r));
        RecordCodec.startMetrics(g);
        if (m.valid()) {
            for (final MetricSpec spec : MetricRegistry.PER_RECORD) {
                value(g, spec, m, digits);
                if (spec == MetricRegistry.ITL && m.iclNanos() != null) {
                    final SerializedString[] icl = TAG_AND_UNIT.get(MetricRegistry.ICL);
                    RecordCodec.startMetric(g, icl[0]);
                    g.writeStartArray();
                    for (final double v : m.iclNanos()) {
                        writeMillis(g, v, digits);
                    }
                    g.writeEndArray();
                    RecordCodec.endMetric(g, icl[1]);
                }
            }
        } else if (m.isl() >= 0) {
            final SerializedString[] errorIsl = TAG_AND_UNIT.get(MetricRegistry.ERROR_ISL);
            RecordCodec.startMetric(g, errorIsl[0]);
            g.writeNumber(m.isl());
            RecordCodec.endMetric(g, errorIsl[1]);
        }
        if (httpTrace) {
            HttpTrace.writeMetrics(g, r);
        }
        RecordCodec.endMetrics(g);
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
            RecordCodec.startMetric(g, names[0]);
            if (spec.whole()) {
                g.writeNumber((long) display);
            } else if (spec.nanosToDisplay() == NANOS_PER_MILLI) {
                writeMillis(g, spec.perRecord().applyAsDouble(m), digits);
            } else {
                g.writeNumber(display);
            }
            RecordCodec.endMetric(g, names[1]);
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
        // the per-chunk list and a failed request's input length are written apart from the per-record values
        for (final MetricSpec spec : new MetricSpec[] {MetricRegistry.ICL, MetricRegistry.ERROR_ISL}) {
            m.putIfAbsent(spec, new SerializedString[] {new SerializedString(spec.tag()),
                    new SerializedString(spec.unit())});
        }
        return m;
    }
}
