package io.aiperf.engine.summary;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The keys of {@code profile_export.jsonl} (AIPerf's export docs, plus this engine's transport fields,
 * src-docs/exports.md), spelled here only: {@code {"metadata":{...},"client":{...},"metrics":{tag:{"value","unit"}},
 * "trace_data":{...},"error":null|{"code","type","message"}}}, one line per request. {@code metadata} holds upstream's
 * fields only, because upstream's reader builds its metadata from exactly those and refuses any other;
 * {@code client} (absent when empty) holds this engine's transport fields and the requested output length. It writes lines (the records
 * writer streams its in-flight requests through the pieces below, with no object per line; {@link #write} writes a
 * {@link RecordLine}) and reads them back as {@link RecordLine}s, losslessly: {@code read(write(x))} is {@code x}.
 * The metric tags are the metric catalogue's; the keys inside {@code trace_data} are the HTTP trace's. Stateless.
 */
public final class RecordCodec {
    // The line's blocks.
    public static final String METADATA = "metadata";
    /** This engine's own per-request fields, beside {@code metadata}: upstream's record model takes no others there. */
    public static final String CLIENT = "client";
    public static final String METRICS = "metrics";
    public static final String TRACE_DATA = "trace_data";
    public static final String ERROR = "error";
    // A metric.
    public static final String VALUE = "value";
    public static final String UNIT = "unit";
    // metadata.
    public static final String SESSION_NUM = "session_num";
    public static final String X_REQUEST_ID = "x_request_id";
    public static final String X_CORRELATION_ID = "x_correlation_id";
    public static final String CONVERSATION_ID = "conversation_id";
    public static final String TURN_INDEX = "turn_index";
    public static final String REQUEST_START_NS = "request_start_ns";
    public static final String CREDIT_ISSUED_NS = "credit_issued_ns";
    public static final String POOL_WAIT_NS = "pool_wait_ns";
    public static final String CONNECT_NS = "connect_ns";
    public static final String RETRIED = "retried";
    public static final String REDIRECTS = "redirects";
    public static final String MALFORMED_CHUNKS = "malformed_chunks";
    public static final String REQUESTED_OUTPUT_TOKENS = "requested_output_tokens";
    public static final String REQUEST_ACK_NS = "request_ack_ns";
    public static final String REQUEST_END_NS = "request_end_ns";
    public static final String WORKER_ID = "worker_id";
    public static final String RECORD_PROCESSOR_ID = "record_processor_id";
    public static final String BENCHMARK_PHASE = "benchmark_phase";
    public static final String WAS_CANCELLED = "was_cancelled";
    public static final String CANCELLATION_TIME_NS = "cancellation_time_ns";
    // error.
    public static final String CODE = "code";
    public static final String TYPE = "type";
    public static final String MESSAGE = "message";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FACTORY = JSON.getFactory();
    // Names encoded once: writing a line is then mostly copying bytes.
    private static final SerializedString K_METADATA = new SerializedString(METADATA);
    private static final SerializedString K_CLIENT = new SerializedString(CLIENT);
    private static final SerializedString K_METRICS = new SerializedString(METRICS);
    private static final SerializedString K_TRACE_DATA = new SerializedString(TRACE_DATA);
    private static final SerializedString K_ERROR = new SerializedString(ERROR);
    private static final SerializedString K_VALUE = new SerializedString(VALUE);
    private static final SerializedString K_UNIT = new SerializedString(UNIT);
    private static final SerializedString K_SESSION_NUM = new SerializedString(SESSION_NUM);
    private static final SerializedString K_X_REQUEST_ID = new SerializedString(X_REQUEST_ID);
    private static final SerializedString K_X_CORRELATION_ID = new SerializedString(X_CORRELATION_ID);
    private static final SerializedString K_CONVERSATION_ID = new SerializedString(CONVERSATION_ID);
    private static final SerializedString K_TURN_INDEX = new SerializedString(TURN_INDEX);
    private static final SerializedString K_REQUEST_START_NS = new SerializedString(REQUEST_START_NS);
    private static final SerializedString K_CREDIT_ISSUED_NS = new SerializedString(CREDIT_ISSUED_NS);
    private static final SerializedString K_POOL_WAIT_NS = new SerializedString(POOL_WAIT_NS);
    private static final SerializedString K_CONNECT_NS = new SerializedString(CONNECT_NS);
    private static final SerializedString K_RETRIED = new SerializedString(RETRIED);
    private static final SerializedString K_REDIRECTS = new SerializedString(REDIRECTS);
    private static final SerializedString K_MALFORMED_CHUNKS = new SerializedString(MALFORMED_CHUNKS);
    private static final SerializedString K_REQUESTED_OUTPUT_TOKENS = new SerializedString(REQUESTED_OUTPUT_TOKENS);
    private static final SerializedString K_REQUEST_ACK_NS = new SerializedString(REQUEST_ACK_NS);
    private static final SerializedString K_REQUEST_END_NS = new SerializedString(REQUEST_END_NS);
    private static final SerializedString K_WORKER_ID = new SerializedString(WORKER_ID);
    private static final SerializedString K_RECORD_PROCESSOR_ID = new SerializedString(RECORD_PROCESSOR_ID);
    private static final SerializedString K_BENCHMARK_PHASE = new SerializedString(BENCHMARK_PHASE);
    private static final SerializedString K_WAS_CANCELLED = new SerializedString(WAS_CANCELLED);
    private static final SerializedString K_CANCELLATION_TIME_NS = new SerializedString(CANCELLATION_TIME_NS);
    private static final SerializedString K_CODE = new SerializedString(CODE);
    private static final SerializedString K_TYPE = new SerializedString(TYPE);
    private static final SerializedString K_MESSAGE = new SerializedString(MESSAGE);

    private RecordCodec() {
    }

    // ---- Writing.

    /**
     * A generator for lines: compact, no separator between root values (each line starts with '{'), doubles in their
     * shortest form; it leaves {@code out} open.
     */
    public static JsonGenerator generator(final OutputStream out) throws IOException {
        final JsonGenerator g = FACTORY.createGenerator(out);
        g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
        g.configure(StreamWriteFeature.USE_FAST_DOUBLE_WRITER.mappedFeature(), true);
        g.setRootValueSeparator(null);
        return g;
    }

    /** Writes {@code line} and its line break. */
    public static void writeLine(final JsonGenerator g, final RecordLine line) throws IOException {
        write(g, line);
        g.writeRaw('\n');
    }

    /** Writes {@code line} as one JSON object. */
    public static void write(final JsonGenerator g, final RecordLine line) throws IOException {
        g.writeStartObject();
        writeMetadata(g, line.metadata());
        startMetrics(g);
        for (final Map.Entry<String, RecordLine.Metric> e : line.metrics().entrySet()) {
            final RecordLine.Metric m = e.getValue();
            startMetric(g, e.getKey());
            if (m.list() != null) {
                g.writeStartArray();
                for (final Number n : m.list()) {
                    number(g, n);
                }
                g.writeEndArray();
            } else {
                number(g, m.value());
            }
            endMetric(g, m.unit());
        }
        endMetrics(g);
        if (line.traceData() != null) {
            g.writeFieldName(K_TRACE_DATA);
            JSON.writeTree(g, line.traceData());
        }
        final RecordLine.Error e = line.error();
        if (e == null) {
            writeNoError(g);
        } else {
            writeError(g, e.code(), e.type(), e.message(), e.extra());
        }
        extra(g, line.extra());
        g.writeEndObject();
    }

    /**
     * Writes the {@code metadata} field and the {@code client} field beside it; absent stamps and counts (see
     * {@link RecordMetadata}) are left out.
     */
    public static void writeMetadata(final JsonGenerator g, final RecordMetadata m) throws IOException {
        g.writeFieldName(K_METADATA);
        g.writeStartObject();
        g.writeFieldName(K_SESSION_NUM);
        g.writeNumber(m.sessionNum());
        g.writeFieldName(K_X_REQUEST_ID);
        g.writeString(m.xRequestId());
        g.writeFieldName(K_X_CORRELATION_ID);
        g.writeString(m.xCorrelationId());
        g.writeFieldName(K_CONVERSATION_ID);
        g.writeString(m.conversationId());
        g.writeFieldName(K_TURN_INDEX);
        g.writeNumber(m.turnIndex());
        g.writeFieldName(K_REQUEST_START_NS);
        g.writeNumber(m.requestStartNs());
        optional(g, K_CREDIT_ISSUED_NS, m.creditIssuedNs());
        optional(g, K_REQUEST_ACK_NS, m.requestAckNs());
        // a failed or cancelled record's end too: upstream's record model requires it
        optional(g, K_REQUEST_END_NS, m.requestEndNs());
        g.writeFieldName(K_WORKER_ID);
        g.writeString(m.workerId());
        g.writeFieldName(K_RECORD_PROCESSOR_ID);
        g.writeString(m.recordProcessorId());
        g.writeFieldName(K_BENCHMARK_PHASE);
        g.writeString(m.benchmarkPhase());
        g.writeFieldName(K_WAS_CANCELLED);
        g.writeBoolean(m.wasCancelled());
        optional(g, K_CANCELLATION_TIME_NS, m.cancellationTimeNs());
        extra(g, m.extra());
        g.writeEndObject();
        writeClient(g, m);
    }

    /** The {@code client} field beside {@code metadata}, when the request has any of its fields; each read once. */
    private static void writeClient(final JsonGenerator g, final RecordMetadata m) throws IOException {
        final long poolWait = m.poolWaitNs();
        final long connect = m.connectNs();
        final boolean retried = m.retried();
        final int redirects = m.redirects();
        final int malformed = m.malformedChunks();
        final int requestedOsl = m.requestedOutputTokens();
        if (poolWait < 0 && connect < 0 && !retried && redirects <= 0 && malformed <= 0 && requestedOsl < 0) {
            return;
        }
        g.writeFieldName(K_CLIENT);
        g.writeStartObject();
        optional(g, K_POOL_WAIT_NS, poolWait);
        optional(g, K_CONNECT_NS, connect);
        if (retried) {
            g.writeFieldName(K_RETRIED);
            g.writeBoolean(true);
        }
        if (redirects > 0) {
            g.writeFieldName(K_REDIRECTS);
            g.writeNumber(redirects);
        }
        if (malformed > 0) {
            g.writeFieldName(K_MALFORMED_CHUNKS);
            g.writeNumber(malformed);
        }
        optional(g, K_REQUESTED_OUTPUT_TOKENS, requestedOsl);
        g.writeEndObject();
    }

    /** Opens the {@code metrics} field; each metric then goes between {@link #startMetric} and {@link #endMetric}. */
    public static void startMetrics(final JsonGenerator g) throws IOException {
        g.writeFieldName(K_METRICS);
        g.writeStartObject();
    }

    /** Opens one metric, {@code "tag":{"value":}, for the caller to write its value. */
    public static void startMetric(final JsonGenerator g, final SerializableString tag) throws IOException {
        g.writeFieldName(tag);
        g.writeStartObject();
        g.writeFieldName(K_VALUE);
    }

    public static void startMetric(final JsonGenerator g, final String tag) throws IOException {
        g.writeFieldName(tag);
        g.writeStartObject();
        g.writeFieldName(K_VALUE);
    }

    /** Closes a metric with its unit. */
    public static void endMetric(final JsonGenerator g, final SerializableString unit) throws IOException {
        g.writeFieldName(K_UNIT);
        g.writeString(unit);
        g.writeEndObject();
    }

    public static void endMetric(final JsonGenerator g, final String unit) throws IOException {
        g.writeFieldName(K_UNIT);
        g.writeString(unit);
        g.writeEndObject();
    }

    public static void endMetrics(final JsonGenerator g) throws IOException {
        g.writeEndObject();
    }

    /** Opens the {@code trace_data} object, for the HTTP trace to fill and close. */
    public static void startTraceData(final JsonGenerator g) throws IOException {
        g.writeFieldName(K_TRACE_DATA);
        g.writeStartObject();
    }

    /** {@code "error":null}. */
    public static void writeNoError(final JsonGenerator g) throws IOException {
        g.writeFieldName(K_ERROR);
        g.writeNull();
    }

    /** {@code "error":{"code","type","message"}}, the code left out when null. */
    public static void writeError(final JsonGenerator g, final Integer code, final String type, final String message)
            throws IOException {
        writeError(g, code, type, message, Map.of());
    }

    private static void writeError(final JsonGenerator g, final Integer code, final String type, final String message,
                                   final Map<String, JsonNode> extra) throws IOException {
        g.writeFieldName(K_ERROR);
        g.writeStartObject();
        if (code != null) {
            g.writeFieldName(K_CODE);
            g.writeNumber(code);
        }
        g.writeFieldName(K_TYPE);
        g.writeString(type);
        g.writeFieldName(K_MESSAGE);
        g.writeString(message);
        extra(g, extra);
        g.writeEndObject();
    }

    private static void optional(final JsonGenerator g, final SerializableString name, final long v)
            throws IOException {
        if (v >= 0) {
            g.writeFieldName(name);
            g.writeNumber(v);
        }
    }

    private static void number(final JsonGenerator g, final Number n) throws IOException {
        if (n == null) {
            g.writeNull();
        } else if (n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte) {
            g.writeNumber(n.longValue());
        } else if (n instanceof Double || n instanceof Float) {
            g.writeNumber(n.doubleValue());
        } else if (n instanceof BigInteger b) {
            g.writeNumber(b);
        } else if (n instanceof BigDecimal b) {
            g.writeNumber(b);
        } else {
            g.writeNumber(n.toString());
        }
    }

    private static void extra(final JsonGenerator g, final Map<String, JsonNode> extra) throws IOException {
        for (final Map.Entry<String, JsonNode> e : extra.entrySet()) {
            g.writeFieldName(e.getKey());
            JSON.writeTree(g, e.getValue());
        }
    }

    // ---- Reading.

    /**
     * Reads one line.
     *
     * @throws JsonParseException when it is not one whole record (cut short, not JSON, no metadata, a metric that is
     *         not a number or a list of numbers), naming the field
     */
    public static RecordLine read(final String line) throws IOException {
        try (JsonParser p = FACTORY.createParser(line)) {
            final RecordLine r = RecordLineParser.record(p);
            if (p.nextToken() != null) {
                throw new JsonParseException(p, "more than one record on the line");
            }
            return r;
        }
    }

    /** Reads every line of a records file, in order (blank lines skipped); a damaged line is an error. */
    public static void forEach(final Path file, final Consumer<RecordLine> each) throws IOException {
        forEach(file, each, null);
    }

    /**
     * Reads every line of a records file, in order (blank lines skipped).
     *
     * @param damaged told the number (from 1) of each line that is not a whole record (a killed run's last, cut
     *                short), which is then left out; null: such a line is an {@link IOException} naming the file
     *                and the line
     */
    public static void forEach(final Path file, final Consumer<RecordLine> each, final IntConsumer damaged)
            throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                final RecordLine r;
                try {
                    r = read(line);
                } catch (com.fasterxml.jackson.core.JsonProcessingException bad) {
                    if (damaged == null) {
                        throw new IOException(file + " line " + number + " is not a record: "
                                + bad.getOriginalMessage(), bad);
                    }
                    damaged.accept(number);
                    continue;
                }
                each.accept(r);
            }
        }
    }
}
