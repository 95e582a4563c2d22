package io.aiperf.engine.summary;

import static io.aiperf.engine.summary.RecordCodec.BENCHMARK_PHASE;
import static io.aiperf.engine.summary.RecordCodec.CANCELLATION_TIME_NS;
import static io.aiperf.engine.summary.RecordCodec.CLIENT;
import static io.aiperf.engine.summary.RecordCodec.CODE;
import static io.aiperf.engine.summary.RecordCodec.CONNECT_NS;
import static io.aiperf.engine.summary.RecordCodec.CONVERSATION_ID;
import static io.aiperf.engine.summary.RecordCodec.CREDIT_ISSUED_NS;
import static io.aiperf.engine.summary.RecordCodec.ERROR;
import static io.aiperf.engine.summary.RecordCodec.MALFORMED_CHUNKS;
import static io.aiperf.engine.summary.RecordCodec.MESSAGE;
import static io.aiperf.engine.summary.RecordCodec.METADATA;
import static io.aiperf.engine.summary.RecordCodec.METRICS;
import static io.aiperf.engine.summary.RecordCodec.POOL_WAIT_NS;
import static io.aiperf.engine.summary.RecordCodec.RECORD_PROCESSOR_ID;
import static io.aiperf.engine.summary.RecordCodec.REDIRECTS;
import static io.aiperf.engine.summary.RecordCodec.REQUESTED_OUTPUT_TOKENS;
import static io.aiperf.engine.summary.RecordCodec.REQUEST_ACK_NS;
import static io.aiperf.engine.summary.RecordCodec.REQUEST_END_NS;
import static io.aiperf.engine.summary.RecordCodec.REQUEST_START_NS;
import static io.aiperf.engine.summary.RecordCodec.RETRIED;
import static io.aiperf.engine.summary.RecordCodec.SESSION_NUM;
import static io.aiperf.engine.summary.RecordCodec.TRACE_DATA;
import static io.aiperf.engine.summary.RecordCodec.TURN_INDEX;
import static io.aiperf.engine.summary.RecordCodec.TYPE;
import static io.aiperf.engine.summary.RecordCodec.UNIT;
import static io.aiperf.engine.summary.RecordCodec.VALUE;
import static io.aiperf.engine.summary.RecordCodec.WAS_CANCELLED;
import static io.aiperf.engine.summary.RecordCodec.WORKER_ID;
import static io.aiperf.engine.summary.RecordCodec.X_CORRELATION_ID;
import static io.aiperf.engine.summary.RecordCodec.X_REQUEST_ID;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link RecordCodec}'s reading half: one line's tokens into a {@link RecordLine}, streamed (no tree, except for the
 * fields kept as they are: the HTTP trace and fields this engine does not write). A field of the wrong type is a
 * {@link JsonParseException} naming it. Stateless.
 */
final class RecordLineParser {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RecordLineParser() {
    }

    static RecordLine record(final JsonParser p) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new JsonParseException(p, "a record is a JSON object");
        }
        RecordLine.Metadata metadata = null;
        ClientFields client = null;
        Map<String, RecordLine.Metric> metrics = Map.of();
        JsonNode traceData = null;
        RecordLine.Error error = null;
        final Map<String, JsonNode> extra = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            final String name = p.currentName();
            final JsonToken value = p.nextToken();
            switch (name) {
                case METADATA -> metadata = metadata(p, value);
                case CLIENT -> client = client(p, value);
                case METRICS -> metrics = metrics(p, value);
                case TRACE_DATA -> traceData = value == JsonToken.VALUE_NULL ? null : tree(p);
                case ERROR -> error = value == JsonToken.VALUE_NULL ? null : error(p, value);
                default -> extra.put(name, tree(p));
            }
        }
        if (p.currentToken() != JsonToken.END_OBJECT) {
            throw new JsonParseException(p, "record not closed");
        }
        if (metadata == null) {
            throw new JsonParseException(p, "record has no " + METADATA);
        }
        return new RecordLine(client == null ? metadata : withClient(metadata, client), metrics, traceData, error,
                unmodifiable(extra));
    }

    /** This engine's fields beside the metadata (absent: -1, or false and 0 for the retry flag and the counts). */
    private record ClientFields(long poolWaitNs, long connectNs, boolean retried, int redirects, int malformedChunks,
                                int requestedOutputTokens) {
    }

    /**
     * Reads this engine's client fields wherever a line has them: in {@code client}, or in {@code metadata}, where
     * lines written before they moved out carry them. One reader for both places, so the two cannot drift apart.
     */
    private static final class ClientFieldReader {
        private long poolWait = -1;
        private long connect = -1;
        private boolean retried;
        private int redirects;
        private int malformed;
        private int requestedOsl = -1;

        /** Reads the field's value when {@code name} is a client field; false (nothing read) otherwise. */
        boolean read(final JsonParser p, final JsonToken t, final String name) throws IOException {
            switch (name) {
                case POOL_WAIT_NS -> poolWait = whole(p, t, name, -1);
                case CONNECT_NS -> connect = whole(p, t, name, -1);
                case RETRIED -> retried = flag(p, t, name);
                case REDIRECTS -> redirects = (int) whole(p, t, name, 0);
                case MALFORMED_CHUNKS -> malformed = (int) whole(p, t, name, 0);
                case REQUESTED_OUTPUT_TOKENS -> requestedOsl = (int) whole(p, t, name, -1);
                default -> {
                    return false;
                }
            }
            return true;
        }

        ClientFields fields() {
            return new ClientFields(poolWait, connect, retried, redirects, malformed, requestedOsl);
        }
    }

    private static ClientFields client(final JsonParser p, final JsonToken start) throws IOException {
        expectObject(p, start, CLIENT);
        final ClientFieldReader reader = new ClientFieldReader();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            final String name = p.currentName();
            if (!reader.read(p, p.nextToken(), name)) {
                p.skipChildren(); // a later version's field
            }
        }
        return reader.fields();
    }

    private static RecordLine.Metadata withClient(final RecordLine.Metadata m, final ClientFields c) {
        return new RecordLine.Metadata(m.sessionNum(), m.xRequestId(), m.xCorrelationId(), m.conversationId(),
                m.turnIndex(), m.requestStartNs(), m.creditIssuedNs(), c.poolWaitNs(), c.connectNs(), c.retried(),
                c.redirects(), c.malformedChunks(), c.requestedOutputTokens(), m.requestAckNs(), m.requestEndNs(),
                m.workerId(), m.recordProcessorId(), m.benchmarkPhase(), m.wasCancelled(), m.cancellationTimeNs(),
                m.extra());
    }

    private static RecordLine.Metadata metadata(final JsonParser p, final JsonToken start) throws IOException {
        expectObject(p, start, METADATA);
        int session = 0;
        String requestId = null;
        String correlationId = null;
        String conversationId = null;
        int turn = 0;
        long start0 = -1;
        long credit = -1;
        final ClientFieldReader client = new ClientFieldReader();
        long ack = -1;
        long end = -1;
        String worker = null;
        String processor = null;
        String phase = null;
        boolean cancelled = false;
        long cancelledAt = -1;
        final Map<String, JsonNode> extra = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            final String name = p.currentName();
            final JsonToken v = p.nextToken();
            switch (name) {
                case SESSION_NUM -> session = (int) whole(p, v, name, 0);
                case X_REQUEST_ID -> requestId = text(p, v, name);
                case X_CORRELATION_ID -> correlationId = text(p, v, name);
                case CONVERSATION_ID -> conversationId = text(p, v, name);
                case TURN_INDEX -> turn = (int) whole(p, v, name, 0);
                case REQUEST_START_NS -> start0 = whole(p, v, name, -1);
                case CREDIT_ISSUED_NS -> credit = whole(p, v, name, -1);
                case REQUEST_ACK_NS -> ack = whole(p, v, name, -1);
                case REQUEST_END_NS -> end = whole(p, v, name, -1);
                case WORKER_ID -> worker = text(p, v, name);
                case RECORD_PROCESSOR_ID -> processor = text(p, v, name);
                case BENCHMARK_PHASE -> phase = text(p, v, name);
                case WAS_CANCELLED -> cancelled = flag(p, v, name);
                case CANCELLATION_TIME_NS -> cancelledAt = whole(p, v, name, -1);
                default -> {
                    if (!client.read(p, v, name)) {
                        extra.put(name, tree(p));
                    }
                }
            }
        }
        final ClientFields c = client.fields();
        return new RecordLine.Metadata(session, requestId, correlationId, conversationId, turn, start0, credit,
                c.poolWaitNs(), c.connectNs(), c.retried(), c.redirects(), c.malformedChunks(),
                c.requestedOutputTokens(), ack, end, worker, processor, phase, cancelled, cancelledAt,
                unmodifiable(extra));
    }

    private static Map<String, RecordLine.Metric> metrics(final JsonParser p, final JsonToken start)
            throws IOException {
        expectObject(p, start, METRICS);
        final Map<String, RecordLine.Metric> out = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            final String tag = p.currentName();
            expectObject(p, p.nextToken(), tag);
            Number value = null;
            List<Number> list = null;
            String unit = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                final String field = p.currentName();
                final JsonToken v = p.nextToken();
                if (field.equals(VALUE)) {
                    if (v == JsonToken.START_ARRAY) {
                        list = new ArrayList<>();
                        JsonToken item;
                        while ((item = p.nextToken()) != JsonToken.END_ARRAY) {
                            list.add(number(p, item, tag));
                        }
                        list = Collections.unmodifiableList(list);
                    } else {
                        value = number(p, v, tag);
                    }
                } else if (field.equals(UNIT)) {
                    unit = text(p, v, tag + "." + UNIT);
                } else {
                    throw new JsonParseException(p, "metric " + tag + " has a field " + field
                            + " (only " + VALUE + " and " + UNIT + ")");
                }
            }
            out.put(tag, new RecordLine.Metric(value, list, unit));
        }
        return Collections.unmodifiableMap(out);
    }

    private static RecordLine.Error error(final JsonParser p, final JsonToken start) throws IOException {
        expectObject(p, start, ERROR);
        Integer code = null;
        String type = null;
        String message = null;
        final Map<String, JsonNode> extra = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            final String name = p.currentName();
            final JsonToken v = p.nextToken();
            switch (name) {
                case CODE -> code = v == JsonToken.VALUE_NULL ? null : (int) whole(p, v, name, 0);
                case TYPE -> type = text(p, v, name);
                case MESSAGE -> message = text(p, v, name);
                default -> extra.put(name, tree(p)); // upstream's cause, cause_chain, details
            }
        }
        return new RecordLine.Error(code, type, message, unmodifiable(extra));
    }

    private static void expectObject(final JsonParser p, final JsonToken t, final String field) throws IOException {
        if (t != JsonToken.START_OBJECT) {
            throw new JsonParseException(p, field + " is not an object");
        }
    }

    private static long whole(final JsonParser p, final JsonToken t, final String field, final long absent)
            throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return absent;
        }
        if (t != JsonToken.VALUE_NUMBER_INT) {
            throw new JsonParseException(p, field + " is not a whole number");
        }
        return p.getLongValue();
    }

    private static String text(final JsonParser p, final JsonToken t, final String field) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.VALUE_STRING) {
            throw new JsonParseException(p, field + " is not a string");
        }
        return p.getText();
    }

    private static boolean flag(final JsonParser p, final JsonToken t, final String field) throws IOException {
        if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
            throw new JsonParseException(p, field + " is not true or false");
        }
        return t == JsonToken.VALUE_TRUE;
    }

    /** A number as written: a Long (a BigInteger past long) for a whole one, a Double otherwise, null for null. */
    private static Number number(final JsonParser p, final JsonToken t, final String tag) throws IOException {
        return switch (t) {
            case VALUE_NULL -> null;
            case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? p.getBigIntegerValue()
                    : (Number) p.getLongValue();
            case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
            default -> throw new JsonParseException(p, "metric " + tag + " is not a number");
        };
    }

    private static JsonNode tree(final JsonParser p) throws IOException {
        final JsonNode n = JSON.readTree(p);
        return n == null ? NullNode.getInstance() : n;
    }

    private static <V> Map<String, V> unmodifiable(final Map<String, V> m) {
        return m.isEmpty() ? Map.of() : Collections.unmodifiableMap(m);
    }
}
