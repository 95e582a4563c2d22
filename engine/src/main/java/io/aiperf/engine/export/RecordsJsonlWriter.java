package io.aiperf.engine.export;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.metrics.MetricSpec;
import io.aiperf.engine.metrics.RecordMetrics;
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
 */
public final class RecordsJsonlWriter implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final OutputStream out;
    private final JsonGenerator g;
    private final OutputStream rawOut;
    private final JsonGenerator raw;
    private final WallClock wall;

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
        g.setRootValueSeparator(null); // lines start with '{', not with Jackson's default space between root values
        return g;
    }

    /** Writes one request's line (and its raw line). */
    public void write(final RequestRecord r, final RecordMetrics m) throws IOException {
        writeOne(g, r, m, wall);
        g.flush();
        out.write('\n');
        if (raw != null) {
            writeRaw(raw, r, wall);
            raw.flush();
            rawOut.write('\n');
        }
    }

    @Override
    public void close() throws IOException {
        g.close();
        if (raw != null) {
            raw.close();
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
        g.writeObjectFieldStart("metadata");
        g.writeNumberField("session_num", r.sessionNum());
        g.writeStringField("x_request_id", r.xRequestId());
        g.writeStringField("x_correlation_id", r.xCorrelationId());
        g.writeStringField("conversation_id", r.conversationId());
        g.writeNumberField("turn_index", r.turnIndex());
        g.writeNumberField("request_start_ns", r.startEpochNanos());
        // When the schedule released the request (open loop: its intended time; closed loop: when it was handed to
        // the transport), and how long it then waited for a connection and for a connect before it was written.
        final long credit = r.intendedStartPerfNanos() >= 0 ? r.intendedStartPerfNanos() : d.transport().issuedNanos();
        if (credit >= 0) {
            g.writeNumberField("credit_issued_ns", wall.toEpochNanos(credit));
        }
        final double poolWait = d.transport().poolWaitNanos(d.startPerfNanos());
        if (!Double.isNaN(poolWait)) {
            g.writeNumberField("pool_wait_ns", (long) poolWait);
        }
        final double connect = d.transport().connectNanos();
        if (!Double.isNaN(connect)) {
            g.writeNumberField("connect_ns", (long) connect);
        }
        if (d.transport().retried()) {
            g.writeBooleanField("retried", true);
        }
        if (d.malformedChunks() > 0) {
            g.writeNumberField("malformed_chunks", d.malformedChunks());
        }
        if (d.ackPerfNanos() >= 0) {
            g.writeNumberField("request_ack_ns", wall.toEpochNanos(d.ackPerfNanos()));
        }
        if (d.hasContent()) {
            g.writeNumberField("request_end_ns", wall.toEpochNanos(d.lastContentNanos()));
        }
        g.writeStringField("worker_id", "worker_0");
        g.writeStringField("record_processor_id", "record_processor_0");
        g.writeStringField("benchmark_phase", r.profiling() ? "profiling" : "warmup");
        g.writeBooleanField("was_cancelled", r.wasCancelled());
        if (r.cancelPerfNanos() >= 0) {
            g.writeNumberField("cancellation_time_ns", wall.toEpochNanos(r.cancelPerfNanos()));
        }
        g.writeEndObject();
    }

    private static void writeError(final JsonGenerator g, final ErrorDetails e) throws IOException {
        if (e == null) {
            g.writeNullField("error");
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

    private static void writeOne(final JsonGenerator g, final RequestRecord r, final RecordMetrics m,
                                 final WallClock wall) throws IOException {
        g.writeStartObject();
        writeMetadata(g, r, wall);
        g.writeObjectFieldStart("metrics");
        if (m.valid()) {
            for (final MetricSpec spec : MetricRegistry.PER_RECORD) {
                value(g, spec, spec.displayValue(m));
                if (spec == MetricRegistry.ITL && m.iclNanos() != null) {
                    g.writeObjectFieldStart(MetricRegistry.ICL.tag());
                    g.writeArrayFieldStart("value");
                    for (final double v : m.iclNanos()) {
                        g.writeNumber(v / MetricRegistry.ICL.nanosToDisplay());
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
        g.writeEndObject();
        writeError(g, m.valid() ? null : m.error());
        g.writeEndObject();
    }

    /** One metric in its display unit; token counts as whole numbers; absent values are left out. */
    private static void value(final JsonGenerator g, final MetricSpec spec, final double display) throws IOException {
        if (Double.isFinite(display)) {
            g.writeObjectFieldStart(spec.tag());
            if (spec.whole()) {
                g.writeNumberField("value", (long) display);
            } else {
                g.writeNumberField("value", display);
            }
            g.writeStringField("unit", spec.unit());
            g.writeEndObject();
        }
    }
}
