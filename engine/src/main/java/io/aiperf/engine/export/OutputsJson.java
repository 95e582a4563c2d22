package io.aiperf.engine.export;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.metrics.MetricSpec;
import io.aiperf.engine.metrics.RecordMetrics;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.summary.RecordCodec;
import io.aiperf.engine.time.WallClock;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * {@code outputs.json} (upstream AIPerf's {@code --export-outputs-json}, schema 1.1, src-docs/exports.md): each
 * request's generated text with its ids, times and a few metrics; profiling requests in {@code data}, warmup ones in
 * {@code warmup}, both sorted by session and turn. Each entry is spooled to a file beside the exports as it arrives,
 * so a long run holds only a small index in memory (three numbers per request), not every answer's text; the file is
 * written from the spool at the end and the spool removed. Not thread-safe.
 */
public final class OutputsJson implements Closeable {
    public static final String FILE = ExportFiles.OUTPUTS_JSON;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectWriter COMPACT = JSON.writer().without(SerializationFeature.INDENT_OUTPUT);
    private static final List<MetricSpec> METRICS = List.of(MetricRegistry.ISL, MetricRegistry.OUTPUT_TOKENS,
            MetricRegistry.OSL, MetricRegistry.REQUEST_LATENCY, MetricRegistry.TTFT, MetricRegistry.ITL);

    private final WallClock wall;
    private final Path spoolFile;
    private final OutputStream spool;
    private final Index profiling = new Index();
    private final Index warmup = new Index();
    private long spooled;

    /** @param dir where the spool lives until {@link #writeTo} (the cell's directory) */
    public OutputsJson(final WallClock wall, final Path dir) throws IOException {
        this.wall = wall;
        this.spoolFile = Files.createTempFile(dir, ".outputs-", ".spool");
        this.spool = new BufferedOutputStream(Files.newOutputStream(spoolFile), 1 << 16);
    }

    public void add(final RequestRecord r, final RecordMetrics m, final boolean isWarmup) throws IOException {
        final byte[] entry = COMPACT.writeValueAsBytes(entry(r, m, isWarmup));
        spool.write(entry);
        (isWarmup ? warmup : profiling).add(r.sessionNum(), r.turnIndex(), spooled, entry.length);
        spooled += entry.length;
    }

    private ObjectNode entry(final RequestRecord r, final RecordMetrics m, final boolean isWarmup) {
        final ObjectNode o = JSON.createObjectNode();
        o.put(RecordCodec.SESSION_NUM, r.sessionNum());
        o.put(RecordCodec.CONVERSATION_ID, r.conversationId());
        o.put(RecordCodec.TURN_INDEX, r.turnIndex());
        o.put(RecordCodec.X_REQUEST_ID, r.xRequestId());
        o.put(RecordCodec.BENCHMARK_PHASE, isWarmup ? "warmup" : "profiling");
        o.put(RecordCodec.REQUEST_START_NS, r.startEpochNanos());
        if (r.endNanos() >= 0) {
            o.put(RecordCodec.REQUEST_END_NS, wall.toEpochNanos(r.endNanos()));
        }
        final ObjectNode metrics = o.putObject(RecordCodec.METRICS);
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
        return o;
    }

    /** Writes the whole file, entries read back from the spool one at a time in session and turn order. */
    public void writeTo(final OutputStream out) throws IOException {
        spool.flush();
        try (FileChannel in = FileChannel.open(spoolFile, StandardOpenOption.READ);
             JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("schema_version", "1.1");
            g.writeArrayFieldStart("data");
            copy(in, profiling, g);
            g.writeEndArray();
            g.writeArrayFieldStart("warmup");
            copy(in, warmup, g);
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    private static void copy(final FileChannel in, final Index index, final JsonGenerator g) throws IOException {
        for (final int i : index.sorted()) {
            final ByteBuffer entry = ByteBuffer.allocate(index.length(i));
            while (entry.hasRemaining()) {
                if (in.read(entry, index.offset(i) + entry.position()) < 0) {
                    throw new IOException("the outputs.json spool ended early");
                }
            }
            try (JsonParser p = JSON.createParser(entry.array())) {
                p.nextToken();
                g.copyCurrentStructure(p);
            }
        }
    }

    /** Removes the spool. */
    @Override
    public void close() throws IOException {
        try {
            spool.close();
        } finally {
            Files.deleteIfExists(spoolFile);
        }
    }

    /** Where each entry sits in the spool, and its sort key; grows by doubling. */
    private static final class Index {
        private long[] keys = new long[64]; // session, turn, offset, length per entry
        private int size;

        void add(final long session, final long turn, final long offset, final int length) {
            if (4 * size + 4 > keys.length) {
                keys = Arrays.copyOf(keys, keys.length * 2);
            }
            keys[4 * size] = session;
            keys[4 * size + 1] = turn;
            keys[4 * size + 2] = offset;
            keys[4 * size + 3] = length;
            size++;
        }

        long offset(final int i) {
            return keys[4 * i + 2];
        }

        int length(final int i) {
            return (int) keys[4 * i + 3];
        }

        /** Entry numbers by session, then turn; arrival order among equals (a stable sort). */
        List<Integer> sorted() {
            final List<Integer> order = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                order.add(i);
            }
            order.sort(Comparator.<Integer>comparingLong(i -> keys[4 * i]).thenComparingLong(i -> keys[4 * i + 1]));
            return order;
        }
    }
}
