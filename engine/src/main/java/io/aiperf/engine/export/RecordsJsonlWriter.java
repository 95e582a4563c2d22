package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.metrics.MetricsAccumulator;
import io.aiperf.engine.metrics.MetricSpec;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.record.ErrorDetails;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.summary.JsonLineWriter;
import io.aiperf.engine.summary.RecordCodec;
import io.aiperf.engine.time.WallClock;
import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code profile_export.jsonl} (AIPerf's export docs): one line per profiling request, in the order requests
 * completed, in {@link RecordCodec}'s keys and shape. Each line is written as its request is processed, straight from
 * the request through the codec's pieces into bytes (no tree, no value per line), so nothing of a request is kept for
 * the export and the records path stays free of per-request allocation. Not thread-safe.
 */
public final class RecordsJsonlWriter implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final java.util.Map<MetricSpec, byte[][]> TAG_AND_UNIT = tagsAndUnits();
    private static final byte[] REQUEST = JsonLineWriter.key("request");
    private static final byte[] RESPONSE = JsonLineWriter.key("response");
    private static final byte[] TEXT = JsonLineWriter.key("text");
    private static final byte[] REASONING = JsonLineWriter.key("reasoning");
    private static final byte[] RESPONSES = JsonLineWriter.key("responses");
    private static final byte[] USAGE = JsonLineWriter.key("usage");
    private final OutputStream out;
    private final JsonLineWriter g;
    private final OutputStream rawOut;
    private final JsonLineWriter raw;
    private final WallClock wall;
    /** The metadata of the record being written, as the codec reads it: one view, reused for every record. */
    private final LiveMetadata metadata;
    /** Writes warmup records nowhere, through the same code as the file's lines (see {@link #rehearse}). */
    private JsonLineWriter rehearsal;
    private OutputStream rehearsalOut;

    private OutputsJson outputs;
    private boolean httpTrace;
    private java.util.Map<String, Double> goodputSlos = java.util.Map.of();

    public RecordsJsonlWriter(final OutputStream out, final WallClock wall) throws IOException {
        this(out, null, wall);
    }

    /** @param rawOut where {@code profile_export_raw.jsonl} goes (request and response of each request), or null */
    public RecordsJsonlWriter(final OutputStream out, final OutputStream rawOut, final WallClock wall)
            throws IOException {
        this.out = out;
        this.wall = wall;
        // Lines go out some dozens at a time, not one write per record: the records file is the largest cost of a
        // fast run after the requests themselves. close() writes the rest.
        this.g = new JsonLineWriter(out);
        this.rawOut = rawOut;
        this.raw = rawOut == null ? null : new JsonLineWriter(rawOut);
        this.metadata = new LiveMetadata(wall);
    }

    /** The run's phases, in order: each line then names its phase as upstream 0.13 does. */
    public void phases(final java.util.List<io.aiperf.engine.config.PhaseConfig> phases) {
        metadata.phases(phases);
    }

    /** Also collects each request's generated text for {@code outputs.json} into {@code outputs}. */
    public void collectOutputs(final OutputsJson outputs) {
        this.outputs = outputs;
    }

    /**
     * With {@code --goodput}, each successful request's {@code good_request_count}: 1 when it met every SLO, else 0,
     * as upstream 0.13 writes it per record.
     */
    public void goodput(final java.util.Map<String, Double> slos) {
        this.goodputSlos = slos;
    }

    /**
     * Upstream's HTTP trace (src-docs/exports.md): with {@code export}, each line also carries its {@code trace_data}
     * (its {@code http_req_*} metrics are in every line).
     */
    public void traceHttp(final boolean export) {
        this.httpTrace = export;
    }

    /** Writes one request's line (and its raw line). */
    public void write(final RequestRecord r, final RecordMetrics m) throws IOException {
        if (outputs != null) {
            outputs.add(r, m, false);
        }
        line(g, r, m, false);
        if (raw != null) {
            line(raw, r, m, true);
        }
    }

    /**
     * One line, whole or not at all: a line an exception cut short is dropped, so the file never holds half a
     * record and the next line starts clean (the caller counts the request as failed).
     */
    private void line(final JsonLineWriter w, final RequestRecord r, final RecordMetrics m, final boolean rawLine)
            throws IOException {
        try {
            if (rawLine) {
                writeRaw(w, r);
            } else {
                writeOne(w, r, m);
            }
            w.endLine();
        } catch (IOException | RuntimeException e) {
            w.discardLine();
            throw e;
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
            rehearsal = new JsonLineWriter(rehearsalOut);
        }
        line(rehearsal, r, m, false);
        if (raw != null) {
            line(rehearsal, r, m, true);
        }
    }

    /**
     * Where rehearsed lines go: the null device through the same kind of stream as the records file (a buffered
     * file channel), so the JIT compiles the path the profiling records take, down to the file writes. Into a stream
     * that only drops bytes, the profiling phase's first file writes recompiled the records file's code and the
     * socket writes that share {@code IOUtil.write} (bench/history/analyses-2026-12.md).
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
    private void writeRaw(final JsonLineWriter g, final RequestRecord r) throws IOException {
        final ResponseData d = r.response();
        g.startObject();
        RecordCodec.writeMetadata(g, metadata.of(r));
        g.name(REQUEST);
        if (r.requestBody() != null) {
            g.tree(JSON.readTree(r.requestBody()));
        } else {
            g.nullValue();
        }
        g.name(RESPONSE);
        g.startObject();
        g.name(TEXT);
        g.value(d.content());
        if (d.reasoning() != null) {
            g.name(REASONING);
            g.value(d.reasoning());
        }
        g.name(RESPONSES);
        g.value(d.contentCount());
        if (d.usage() != null) {
            g.name(USAGE);
            g.startObject();
            writeOptional(g, "prompt_tokens", d.usage().promptTokens());
            writeOptional(g, "completion_tokens", d.usage().completionTokens());
            writeOptional(g, "total_tokens", d.usage().totalTokens());
            writeOptional(g, "reasoning_tokens", d.usage().reasoningTokens());
            g.endObject();
        }
        g.endObject();
        writeError(g, d.error());
        g.endObject();
    }

    private static void writeOptional(final JsonLineWriter g, final String name, final Integer v) {
        if (v != null) {
            g.name(name);
            g.value(v.longValue());
        }
    }

    private static void writeError(final JsonLineWriter g, final ErrorDetails e) throws IOException {
        if (e == null) {
            RecordCodec.writeNoError(g);
        } else {
            RecordCodec.writeError(g, e.code(), e.type(), e.message());
        }
    }

    private void writeOne(final JsonLineWriter g, final RequestRecord r, final RecordMetrics m) throws IOException {
        g.startObject();
        RecordCodec.writeMetadata(g, metadata.of(r));
        RecordCodec.startMetrics(g);
        if (m.valid()) {
            for (final MetricSpec spec : MetricRegistry.PER_RECORD) {
                value(g, spec, m);
                if (spec == MetricRegistry.ITL && m.iclNanos() != null) {
                    final byte[][] icl = TAG_AND_UNIT.get(MetricRegistry.ICL);
                    RecordCodec.startMetric(g, icl[0]);
                    g.startArray();
                    for (final double v : m.iclNanos()) {
                        g.millis(v);
                    }
                    g.endArray();
                    RecordCodec.endMetric(g, icl[1]);
                }
            }
            if (!goodputSlos.isEmpty()) {
                final byte[][] good = TAG_AND_UNIT.get(MetricRegistry.GOOD_COUNT);
                RecordCodec.startMetric(g, good[0]);
                g.value(MetricsAccumulator.meetsAll(m, goodputSlos) ? 1 : 0);
                RecordCodec.endMetric(g, good[1]);
            }
        } else if (m.isl() >= 0) {
            final byte[][] errorIsl = TAG_AND_UNIT.get(MetricRegistry.ERROR_ISL);
            RecordCodec.startMetric(g, errorIsl[0]);
            g.value(m.isl());
            RecordCodec.endMetric(g, errorIsl[1]);
        }
        RecordCodec.endMetrics(g);
        if (httpTrace) {
            HttpTrace.writeTraceData(g, r, wall);
        }
        writeError(g, m.valid() ? null : m.error());
        g.endObject();
    }

    /** One metric in its display unit; token counts as whole numbers; absent values are left out. */
    private static void value(final JsonLineWriter g, final MetricSpec spec, final RecordMetrics m) {
        final double display = spec.displayValue(m);
        if (Double.isFinite(display)) {
            final byte[][] names = TAG_AND_UNIT.get(spec);
            RecordCodec.startMetric(g, names[0]);
            if (spec.whole()) {
                g.value((long) display);
            } else if (spec.nanosToDisplay() == NANOS_PER_MILLI) {
                g.millis(spec.perRecord().applyAsDouble(m));
            } else if (spec.nanosToDisplay() == BYTES_PER_KIB) {
                g.kibibytes(spec.perRecord().applyAsDouble(m)); // written without a String per value, as the ms ones
            } else {
                g.value(display);
            }
            RecordCodec.endMetric(g, names[1]);
        }
    }

    private static final double NANOS_PER_MILLI = 1e6;
    private static final double BYTES_PER_KIB = 1024;

    private static java.util.Map<MetricSpec, byte[][]> tagsAndUnits() {
        final java.util.Map<MetricSpec, byte[][]> m = new java.util.IdentityHashMap<>();
        for (final MetricSpec spec : MetricRegistry.PER_RECORD) {
            m.put(spec, new byte[][] {RecordCodec.key(spec.tag()), RecordCodec.unit(spec.unit())});
        }
        // the per-chunk list, a failed request's input length and the goodput flag are written apart from the
        // per-record values
        for (final MetricSpec spec : new MetricSpec[] {MetricRegistry.ICL, MetricRegistry.ERROR_ISL,
                MetricRegistry.GOOD_COUNT}) {
            m.putIfAbsent(spec, new byte[][] {RecordCodec.key(spec.tag()), RecordCodec.unit(spec.unit())});
        }
        return m;
    }
}
