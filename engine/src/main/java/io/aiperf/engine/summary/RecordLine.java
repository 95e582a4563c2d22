package io.aiperf.engine.summary;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * One line of {@code profile_export.jsonl} as a value ({@link RecordCodec} reads and writes it): what the request
 * was and when, each of its metrics by catalogue tag, its HTTP trace, and why it failed.
 *
 * @param metrics by tag, in the line's order
 * @param traceData the {@code trace_data} object ({@code --export-http-trace}; its keys are the HTTP trace's), or null
 * @param error why the request failed or was cancelled, or null
 * @param extra top-level fields this engine does not write (an upstream line's), in their order
 */
public record RecordLine(Metadata metadata, Map<String, Metric> metrics, JsonNode traceData, Error error,
                         Map<String, JsonNode> extra) {

    /** The metadata block; see {@link RecordMetadata} for what each field is and how an absent one reads. */
    public record Metadata(int sessionNum, String xRequestId, String xCorrelationId, String conversationId,
                           int turnIndex, long requestStartNs, long creditIssuedNs, long poolWaitNs, long connectNs,
                           boolean retried, int redirects, int malformedChunks, int requestedOutputTokens,
                           long requestAckNs, long requestEndNs, String workerId, String recordProcessorId,
                           String benchmarkPhase, boolean wasCancelled, long cancellationTimeNs,
                           Map<String, JsonNode> extra) implements RecordMetadata {
    }

    /**
     * One metric in its display unit.
     *
     * @param value a number as written: a {@code Long} for a whole one, a {@code Double} otherwise; null for a list
     * @param list a per-chunk metric's values (inter-chunk latency), or null
     */
    public record Metric(Number value, List<Number> list, String unit) {
        /** The value as a double; NaN for a list or no value. */
        public double number() {
            return value == null ? Double.NaN : value.doubleValue();
        }
    }

    /**
     * @param code the HTTP status, or null (a transport failure, a cancellation)
     * @param extra fields this engine does not write (upstream's {@code cause}, {@code cause_chain}, {@code details}),
     *              kept as they were read
     */
    public record Error(Integer code, String type, String message, Map<String, JsonNode> extra) {
        public Error(final Integer code, final String type, final String message) {
            this(code, type, message, Map.of());
        }
    }

    /** The metric of {@code tag}, or null. */
    public Metric metric(final String tag) {
        return metrics.get(tag);
    }

    /** Whether the request succeeded (no error). */
    public boolean valid() {
        return error == null;
    }
}
