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
    /** The tag and unit of the per-chunk list and of a failed request's input length, written apart from the rest. */
    private static final SerializedString[] ICL = tagAndUnit(MetricRegistry.ICL);
    private static final SerializedString[] ERROR_ISL = tagAndUnit(MetricRegistry.ERROR_ISL);
    private final OutputStream out;
    private final JsonGenerator g;
    private final OutputStream rawOut;
    private final JsonGenerator raw;
    private final WallClock wall;
    private final char[] digits = new char[32];
    /** One metric's object as text, {@code {"value":...,"unit":"..."}}: see {@link #value}. */
    private final char[] metric = metricBuffer();
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
            for (int i = 0; i < PER_RECORD.length; i++) {
                final MetricSpec spec = PER_RECORD[i];
                value(g, i, m);
                if (spec == MetricRegistry.ITL && m.iclNanos() != null) {
                    final SerializedString[] icl = ICL;
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
            final SerializedString[] errorIsl = ERROR_ISL;
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

    /**
     * One metric in its display unit ({@code PER_RECORD[i]}); token counts as whole numbers; absent values are left
     * out. The metric's object is made here as text, its value between the constant {@code {"value":} and the
     * metric's constant {@code ,"unit":"..."}}, and handed to the generator as one raw value: seven generator calls
     * per metric, each checking its context, were most of the records line's cost.
     */
    private void value(final JsonGenerator g, final int i, final RecordMetrics m) throws IOException {
        final MetricSpec spec = PER_RECORD[i];
        final double display = spec.displayValue(m);
        if (!Double.isFinite(display)) {
            return;
        }
        int len = VALUE_OPEN.length; // the buffer starts with it for good: see metricBuffer()
        if (spec.whole()) {
            len = whole((long) display, metric, len);
        } else if (spec.nanosToDisplay() == NANOS_PER_MILLI && isWholeNanos(spec.perRecord().applyAsDouble(m))) {
            len += millis((long) spec.perRecord().applyAsDouble(m), metric, len);
        } else {
            final String text = com.fasterxml.jackson.core.io.NumberOutput.toString(display, true);
            text.getChars(0, text.length(), metric, len);
            len += text.length();
        }
        final char[] close = CLOSE[i];
        System.arraycopy(close, 0, metric, len, close.length);
        len += close.length;
        g.writeFieldName(FIELD[i]);
        g.writeRawValue(metric, 0, len);
    }

    /** Writes {@code v} in decimal into {@code out} at {@code at}; returns the end. */
    private static int whole(final long v, final char[] out, final int at) {
        final String text = v >= 0 && v < SMALL.length ? SMALL[(int) v] : Long.toString(v);
        text.getChars(0, text.length(), out, at);
        return at + text.length();
    }

    private static final double NANOS_PER_MILLI = 1e6;

    /**
     * Nanoseconds written as milliseconds. A whole number of nanoseconds (every latency and gap measured here) is
     * written as its exact decimal, which is also the shortest form of the double {@code nanos / 1e6} (as Python
     * prints it: {@code 20.034567}, {@code 0.000123}), from a reused buffer: no allocation for the dozens of chunk
     * gaps of each record. Anything else goes through Jackson.
     */
    static void writeMillis(final JsonGenerator g, final double nanos, final char[] digits) throws IOException {
        if (!isWholeNanos(nanos)) {
            g.writeNumber(nanos / NANOS_PER_MILLI);
            return;
        }
        final int len = millis((long) nanos, digits);
        g.writeNumber(digits, 0, len);
    }

    /** Whether {@code nanos} is a whole number of nanoseconds that {@link #millis} writes exactly. */
    private static boolean isWholeNanos(final double nanos) {
        return nanos >= 0 && nanos < 1e15 && nanos == Math.rint(nanos);
    }

    /** Writes {@code ns / 1e6} as a decimal into {@code out} ({@code 0 <= ns < 1e15}); returns its length. */
    static int millis(final long ns, final char[] out) {
        return millis(ns, out, 0);
    }

    /** Writes {@code ns / 1e6} as a decimal into {@code out} from {@code at}; returns its length. */
    private static int millis(final long ns, final char[] buf, final int at) {
        long whole = ns / 1_000_000L;
        int frac = (int) (ns % 1_000_000L);
        int len = at;
        if (whole == 0) {
            buf[len++] = '0';
        } else {
            final int start = len;
            while (whole > 0) {
                buf[len++] = (char) ('0' + whole % 10);
                whole /= 10;
            }
            for (int i = start, j = len - 1; i < j; i++, j--) {
                final char c = buf[i];
                buf[i] = buf[j];
                buf[j] = c;
            }
        }
        buf[len++] = '.';
        if (frac == 0) {
            buf[len++] = '0';
            return len - at;
        }
        int places = 6;
        while (frac % 10 == 0) {
            frac /= 10;
            places--;
        }
        for (int i = places - 1; i >= 0; i--) {
            buf[len + i] = (char) ('0' + frac % 10);
            frac /= 10;
        }
        return len + places - at;
    }

    private static final MetricSpec[] PER_RECORD = MetricRegistry.PER_RECORD.toArray(MetricSpec[]::new);
    private static final char[] VALUE_OPEN = RecordCodec.metricTextOpen();
    /** Per metric of {@link #PER_RECORD}: its tag as a field name, and the end of its object with its unit. */
    private static final SerializedString[] FIELD = new SerializedString[PER_RECORD.length];
    private static final char[][] CLOSE = new char[PER_RECORD.length][];
    /** The decimal text of small counts (token counts are written per metric per record). */
    private static final String[] SMALL = new String[4096];

    static {
        for (int i = 0; i < PER_RECORD.length; i++) {
            FIELD[i] = new SerializedString(PER_RECORD[i].tag());
            CLOSE[i] = RecordCodec.metricTextClose(PER_RECORD[i].unit());
        }
        for (int i = 0; i < SMALL.length; i++) {
            SMALL[i] = Integer.toString(i);
        }
    }

    private static char[] metricBuffer() {
        final char[] buffer = new char[256];
        System.arraycopy(VALUE_OPEN, 0, buffer, 0, VALUE_OPEN.length);
        return buffer;
    }

    private static SerializedString[] tagAndUnit(final MetricSpec spec) {
        return new SerializedString[] {new SerializedString(spec.tag()), new SerializedString(spec.unit())};
    }
}
