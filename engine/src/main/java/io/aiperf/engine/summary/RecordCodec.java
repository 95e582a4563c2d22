package io.aiperf.engine.summary;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
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
    public static final String PHASE_INDEX = "phase_index";
    public static final String PROFILING_INDEX = "profiling_index";
    public static final String PHASE_NAME = "phase_name";
    public static final String PHASE_KIND = "phase_kind";
    public static final String CONTEXT_OVERFLOW_SKIP = "context_overflow_skip";
    public static final String AGENT_DEPTH = "agent_depth";
    public static final String ROOT_CORRELATION_ID = "root_correlation_id";
    // error.
    public static final String CODE = "code";
    public static final String TYPE = "type";
    public static final String MESSAGE = "message";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FACTORY = JSON.getFactory();
    // Names encoded once: writing a line is then mostly copying bytes.
    private static final byte[] K_METADATA = JsonLineWriter.key(METADATA);
    private static final byte[] K_CLIENT = JsonLineWriter.key(CLIENT);
    private static final byte[] K_METRICS = JsonLineWriter.key(METRICS);
    private static final byte[] K_TRACE_DATA = JsonLineWriter.key(TRACE_DATA);
    private static final byte[] K_ERROR = JsonLineWriter.key(ERROR);
    private static final byte[] K_VALUE = JsonLineWriter.key(VALUE);
    private static final byte[] K_UNIT = JsonLineWriter.key(UNIT);
    private static final byte[] K_SESSION_NUM = JsonLineWriter.key(SESSION_NUM);
    private static final byte[] K_X_REQUEST_ID = JsonLineWriter.key(X_REQUEST_ID);
    private static final byte[] K_X_CORRELATION_ID = JsonLineWriter.key(X_CORRELATION_ID);
    private static final byte[] K_CONVERSATION_ID = JsonLineWriter.key(CONVERSATION_ID);
    private static final byte[] K_TURN_INDEX = JsonLineWriter.key(TURN_INDEX);
    private static final byte[] K_REQUEST_START_NS = JsonLineWriter.key(REQUEST_START_NS);
    private static final byte[] K_CREDIT_ISSUED_NS = JsonLineWriter.key(CREDIT_ISSUED_NS);
    private static final byte[] K_POOL_WAIT_NS = JsonLineWriter.key(POOL_WAIT_NS);
    private static final byte[] K_CONNECT_NS = JsonLineWriter.key(CONNECT_NS);
    private static final byte[] K_RETRIED = JsonLineWriter.key(RETRIED);
    private static final byte[] K_REDIRECTS = JsonLineWriter.key(REDIRECTS);
    private static final byte[] K_MALFORMED_CHUNKS = JsonLineWriter.key(MALFORMED_CHUNKS);
    private static final byte[] K_REQUESTED_OUTPUT_TOKENS = JsonLineWriter.key(REQUESTED_OUTPUT_TOKENS);
    private static final byte[] K_REQUEST_ACK_NS = JsonLineWriter.key(REQUEST_ACK_NS);
    private static final byte[] K_REQUEST_END_NS = JsonLineWriter.key(REQUEST_END_NS);
    private static final byte[] K_WORKER_ID = JsonLineWriter.key(WORKER_ID);
    private static final byte[] K_RECORD_PROCESSOR_ID = JsonLineWriter.key(RECORD_PROCESSOR_ID);
    private static final byte[] K_BENCHMARK_PHASE = JsonLineWriter.key(BENCHMARK_PHASE);
    private static final byte[] K_WAS_CANCELLED = JsonLineWriter.key(WAS_CANCELLED);
    private static final byte[] K_PHASE_INDEX = JsonLineWriter.key(PHASE_INDEX);
    private static final byte[] K_PROFILING_INDEX = JsonLineWriter.key(PROFILING_INDEX);
    private static final byte[] K_PHASE_NAME = JsonLineWriter.key(PHASE_NAME);
    private static final byte[] K_PHASE_KIND = JsonLineWriter.key(PHASE_KIND);
    private static final byte[] K_CONTEXT_OVERFLOW_SKIP = JsonLineWriter.key(CONTEXT_OVERFLOW_SKIP);
    private static final byte[] K_AGENT_DEPTH = JsonLineWriter.key(AGENT_DEPTH);
    private static final byte[] K_ROOT_CORRELATION_ID = JsonLineWriter.key(ROOT_CORRELATION_ID);
    private static final byte[] K_CANCELLATION_TIME_NS = JsonLineWriter.key(CANCELLATION_TIME_NS);
    private static final byte[] K_CODE = JsonLineWriter.key(CODE);
    private static final byte[] K_TYPE = JsonLineWriter.key(TYPE);
    private static final byte[] K_MESSAGE = JsonLineWriter.key(MESSAGE);

    private RecordCodec() {
    }

    // ---- Writing.

    /** Writes {@code line} and its line break. */
    public static void writeLine(final JsonLineWriter w, final RecordLine line) throws IOException {
        write(w, line);
        w.endLine();
    }

    /** Writes {@code line} as one JSON object. */
    public static void write(final JsonLineWriter w, final RecordLine line) throws IOException {
        w.startObject();
        writeMetadata(w, line.metadata());
        startMetrics(w);
        for (final Map.Entry<String, RecordLine.Metric> e : line.metrics().entrySet()) {
            final RecordLine.Metric m = e.getValue();
            startMetric(w, e.getKey());
            if (m.list() != null) {
                w.startArray();
                for (final Number n : m.list()) {
                    w.value(n);
                }
                w.endArray();
            } else {
                w.value(m.value());
            }
            endMetric(w, m.unit());
        }
        endMetrics(w);
        if (line.traceData() != null) {
            w.name(K_TRACE_DATA);
            w.tree(line.traceData());
        }
        final RecordLine.Error e = line.error();
        if (e == null) {
            writeNoError(w);
        } else {
            writeError(w, e.code(), e.type(), e.message(), e.extra());
        }
        extra(w, line.extra());
        w.endObject();
    }

    /**
     * Writes the {@code metadata} field and the {@code client} field beside it; absent stamps and counts (see
     * {@link RecordMetadata}) are left out.
     */
    public static void writeMetadata(final JsonLineWriter w, final RecordMetadata m) throws IOException {
        w.name(K_METADATA);
        w.startObject();
        w.name(K_SESSION_NUM);
        w.value(m.sessionNum());
        w.name(K_X_REQUEST_ID);
        w.value(m.xRequestId());
        w.name(K_X_CORRELATION_ID);
        w.value(m.xCorrelationId());
        w.name(K_CONVERSATION_ID);
        w.value(m.conversationId());
        w.name(K_TURN_INDEX);
        w.value(m.turnIndex());
        w.name(K_REQUEST_START_NS);
        w.value(m.requestStartNs());
        optional(w, K_CREDIT_ISSUED_NS, m.creditIssuedNs());
        optional(w, K_REQUEST_ACK_NS, m.requestAckNs());
        // a failed or cancelled record's end too: upstream's record model requires it
        optional(w, K_REQUEST_END_NS, m.requestEndNs());
        w.name(K_WORKER_ID);
        w.value(m.workerId());
        w.name(K_RECORD_PROCESSOR_ID);
        w.value(m.recordProcessorId());
        w.name(K_BENCHMARK_PHASE);
        w.value(m.benchmarkPhase());
        final RecordMetadata.Phase phase = m.phase();
        if (phase != null) { // upstream 0.13's phase fields, in its order
            w.name(K_PHASE_INDEX);
            w.value(phase.index());
            optional(w, K_PROFILING_INDEX, phase.profilingIndex());
            w.name(K_PHASE_NAME);
            w.value(phase.name());
            w.name(K_PHASE_KIND);
            w.value(phase.kind());
        }
        w.name(K_WAS_CANCELLED);
        w.value(m.wasCancelled());
        optional(w, K_CANCELLATION_TIME_NS, m.cancellationTimeNs());
        if (phase != null) { // no context-overflow skips and no agent trees here: a request is its own root
            w.name(K_CONTEXT_OVERFLOW_SKIP);
            w.value(false);
            w.name(K_AGENT_DEPTH);
            w.value(0);
            w.name(K_ROOT_CORRELATION_ID);
            w.value(m.xCorrelationId());
        }
        extra(w, m.extra());
        w.endObject();
        writeClient(w, m);
    }

    /** The {@code client} field beside {@code metadata}, when the request has any of its fields; each read once. */
    private static void writeClient(final JsonLineWriter w, final RecordMetadata m) {
        final long poolWait = m.poolWaitNs();
        final long connect = m.connectNs();
        final boolean retried = m.retried();
        final int redirects = m.redirects();
        final int malformed = m.malformedChunks();
        final int requestedOsl = m.requestedOutputTokens();
        if (poolWait < 0 && connect < 0 && !retried && redirects <= 0 && malformed <= 0 && requestedOsl < 0) {
            return;
        }
        w.name(K_CLIENT);
        w.startObject();
        optional(w, K_POOL_WAIT_NS, poolWait);
        optional(w, K_CONNECT_NS, connect);
        if (retried) {
            w.name(K_RETRIED);
            w.value(true);
        }
        if (redirects > 0) {
            w.name(K_REDIRECTS);
            w.value(redirects);
        }
        if (malformed > 0) {
            w.name(K_MALFORMED_CHUNKS);
            w.value(malformed);
        }
        optional(w, K_REQUESTED_OUTPUT_TOKENS, requestedOsl);
        w.endObject();
    }

    /** Opens the {@code metrics} field; each metric then goes between {@link #startMetric} and {@link #endMetric}. */
    public static void startMetrics(final JsonLineWriter w) {
        w.name(K_METRICS);
        w.startObject();
    }

    /** Opens one metric, {@code "tag":{"value":}, for the caller to write its value; {@code tag} from {@link #key}. */
    public static void startMetric(final JsonLineWriter w, final byte[] tag) {
        w.name(tag);
        w.startObject();
        w.name(K_VALUE);
    }

    public static void startMetric(final JsonLineWriter w, final String tag) {
        w.name(tag);
        w.startObject();
        w.name(K_VALUE);
    }

    /** Closes a metric with its unit; {@code unit} from {@link #unit}. */
    public static void endMetric(final JsonLineWriter w, final byte[] unit) {
        w.name(K_UNIT);
        w.rawValue(unit);
        w.endObject();
    }

    public static void endMetric(final JsonLineWriter w, final String unit) {
        w.name(K_UNIT);
        w.value(unit);
        w.endObject();
    }

    public static void endMetrics(final JsonLineWriter w) {
        w.endObject();
    }

    /** A metric's tag, encoded once for {@link #startMetric(JsonLineWriter, byte[])}. */
    public static byte[] key(final String tag) {
        return JsonLineWriter.key(tag);
    }

    /** A metric's unit, encoded once for {@link #endMetric(JsonLineWriter, byte[])}. */
    public static byte[] unit(final String unit) {
        return JsonLineWriter.encoded(unit);
    }

    /** Opens the {@code trace_data} object, for the HTTP trace to fill and close. */
    public static void startTraceData(final JsonLineWriter w) {
        w.name(K_TRACE_DATA);
        w.startObject();
    }

    /** {@code "error":null}. */
    public static void writeNoError(final JsonLineWriter w) {
        w.name(K_ERROR);
        w.nullValue();
    }

    /** {@code "error":{"code","type","message"}}, the code left out when null. */
    public static void writeError(final JsonLineWriter w, final Integer code, final String type, final String message)
            throws IOException {
        writeError(w, code, type, message, Map.of());
    }

    private static void writeError(final JsonLineWriter w, final Integer code, final String type,
                                   final String message, final Map<String, JsonNode> extra) throws IOException {
        w.name(K_ERROR);
        w.startObject();
        if (code != null) {
            w.name(K_CODE);
            w.value(code.longValue());
        }
        w.name(K_TYPE);
        w.value(type);
        w.name(K_MESSAGE);
        w.value(message);
        extra(w, extra);
        w.endObject();
    }

    private static void optional(final JsonLineWriter w, final byte[] name, final long v) {
        if (v >= 0) {
            w.name(name);
            w.value(v);
        }
    }

    private static void extra(final JsonLineWriter w, final Map<String, JsonNode> extra) throws IOException {
        for (final Map.Entry<String, JsonNode> e : extra.entrySet()) {
            w.name(e.getKey());
            w.tree(e.getValue());
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
