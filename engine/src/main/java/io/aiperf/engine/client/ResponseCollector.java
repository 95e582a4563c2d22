package io.aiperf.engine.client;

import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.record.ErrorDetails;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.Usage;
import io.aiperf.engine.time.Clock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.client5.http.async.methods.AbstractBinResponseConsumer;

/**
 * Consumes one inference response as its bytes arrive. The clock is read on entry to each callback, before
 * any parsing, so TTFT never includes client work (AIPerf's endpoint and streaming docs). Streams are framed into SSE events and
 * parsed one at a time; plain bodies are parsed once complete. Memory per request is the content text plus
 * one timestamp per content response. Not thread-safe: used by one I/O thread.
 * <p>
 * It is over 400 lines because it is the one place that turns HttpClient's callbacks into a timed response: the
 * stamps, the SSE framing, the size limit and the error outcomes must see the same state.
 */
final class ResponseCollector extends AbstractBinResponseConsumer<ResponseData> {
    private static final int MAX_ERROR_BODY = 4096;
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_FIELD = "event:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ERROR_NAME = "error".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA_FIELD = "data:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ERROR_FIELD = "error:".getBytes(StandardCharsets.US_ASCII);

    private final Clock clock;
    private final boolean streaming;
    private final RunLimits limits;
    private long receivedBytes;
    private final long issuedNanos;
    private final boolean retried;
    private volatile long startPerfNanos;
    private volatile boolean written;
    private volatile long connectStartNanos = -1;
    private volatile long connectDoneNanos = -1;
    /** When the whole request was handed to the socket, or -1 (HTTP trace metrics). */
    private volatile long writtenNanos = -1;
    private volatile boolean newConnection;
    private long bytesSent = -1;
    private int malformedChunks;
    private final ChunkParser.Chunk chunk = new ChunkParser.Chunk();
    private final ResponseParser parser;
    private Runnable firstContentListener;
    private SseFramer framer; // only for event streams
    private volatile long ackNanos = -1;
    private int status;
    private String reason;
    /** The Location of a redirect that was not followed, or null. */
    private String location;
    /** Why that redirect was refused outright (credentials, https to http), or null. */
    private String locationRefused;
    private volatile int redirects;
    private volatile boolean closesAfterResponse;
    private boolean sse;
    private Body body;
    private long[] contentNanos = new long[4];
    private int contentCount;
    private int firstOutputIndex = -1;
    private StringBuilder content;
    private StringBuilder reasoning;
    private Usage usage;
    /** The completion tokens of the usage on the first content chunk that had one, or -1 (per-chunk usage). */
    private int firstChunkTokens = -1;
    private long lastByteNanos = -1;
    private long firstByteNanos = -1;
    /** The stamp of the last read that carried body bytes: the pieces of one socket read share it. */
    private long lastReadNanos = -1;
    private int reads;
    private ErrorDetails streamError; // an error the server sent inside a 200 stream

    /**
     * @param issuedNanos when the request was handed to the transport (the first attempt's, on a retry)
     * @param retried this is the second attempt
     */
    ResponseCollector(final Clock clock, final boolean streaming, final long issuedNanos, final boolean retried,
                      final RunLimits limits, final ResponseParser parser) {
        this.parser = parser;
        this.clock = clock;
        this.streaming = streaming;
        this.limits = limits;
        this.issuedNanos = issuedNanos;
        this.retried = retried;
        this.startPerfNanos = issuedNanos;
    }

    /**
     * Stamps the moment the request head is handed to the connection, which is what latencies are measured
     * from; the issue stamp stays as the fallback.
     */
    void markSent(final long nanos) {
        if (!written) { // a followed redirect sends again: latencies still count from the first send
            startPerfNanos = nanos;
        }
        written = true;
    }

    /** The whole request was handed to the socket at {@code nanos} (the first time, when a redirect sends again). */
    void markWritten(final long nanos) {
        if (writtenNanos < 0) {
            writtenNanos = nanos;
        }
    }

    /** The request is the first on its connection. */
    void markNewConnection() {
        newConnection = true;
    }

    /** The request body's size in bytes. */
    void bodyBytes(final long bytes) {
        bytesSent = bytes;
    }

    /** A redirect was followed: the request goes out again, to its Location. */
    void countRedirect() {
        redirects++;
    }

    /** The answer is a redirect to {@code target} that is not followed: its error record names it. */
    void redirectedTo(final String target, final String why) {
        location = target;
        locationRefused = why;
    }

    /** The request went out on a connection opened for it because its server closes them after its answers. */
    void markClosesAfterResponse() {
        closesAfterResponse = true;
    }

    /** Called on the I/O thread when the first content arrives. */
    void onFirstContent(final Runnable listener) {
        this.firstContentListener = listener;
    }

    /** Whether the request head was handed to a connection: from then on the server may have received it. */
    boolean written() {
        return written;
    }

    /** Whether this is the second attempt of its request. */
    boolean retried() {
        return retried;
    }

    /** Whether any byte of a response arrived. */
    boolean receivedAnything() {
        return ackNanos >= 0;
    }

    /** Whether the request went out on a pooled connection rather than one opened for it. */
    boolean reusedConnection() {
        return connectStartNanos < 0;
    }

    void markConnectStart(final long nanos) {
        connectStartNanos = nanos;
    }

    void markConnectDone(final long nanos) {
        connectDoneNanos = nanos;
    }

    @Override
    protected void start(final HttpResponse response, final ContentType contentType) throws HttpException, IOException {
        final org.apache.hc.core5.http.Header target = response.getFirstHeader("Location");
        if (target != null && response.getCode() >= 300 && response.getCode() < 400) {
            redirectedTo(target.getValue(), null);
        }
        try {
            begin(response.getCode(), response.getReasonPhrase(), contentType == null ? null : contentType.getMimeType(),
                    clock.nanoTime());
        } catch (Error e) {
            throw new IOException("internal error while reading the response head: " + e, e); // the I/O thread lives on
        }
    }

    /** This collector as the sink of a response reader: the head, then the body bytes as they arrive. */
    Http1ResponseReader.Sink asSink() {
        return asSink(null);
    }

    /** As {@link #asSink()}, for {@code reader}'s responses: their bodies' buffers sized by their Content-Length. */
    Http1ResponseReader.Sink asSink(final Http1ResponseReader reader) {
        return new Http1ResponseReader.Sink() {
            @Override
            public void head(final int status, final String reason, final String mimeType, final long nanos) {
                begin(status, reason, mimeType, nanos, reader == null ? -1 : reader.announcedLength());
            }

            @Override
            public void body(final ByteBuffer b, final boolean last, final long nanos) throws IOException {
                receive(b, last, nanos);
            }
        };
    }

    /**
     * The response head arrived at {@code nanos}.
     *
     * @param mimeType the Content-Type without parameters, or null when the server sent none
     */
    void begin(final int status, final String reason, final String mimeType, final long nanos) {
        begin(status, reason, mimeType, nanos, -1);
    }

    /**
     * @param announcedLength the body's Content-Length, or -1: a body's buffer is then allocated at its size (a
     *                        kilobyte per answer of a fast run was the largest allocation of its path)
     */
    void begin(final int status, final String reason, final String mimeType, final long nanos,
               final long announcedLength) {
        ackNanos = nanos;
        this.status = status;
        this.reason = reason;
        final boolean ok = status >= 200 && status < 300;
        sse = ok && streaming && (mimeType == null || "text/event-stream".equalsIgnoreCase(mimeType));
        if (sse) {
            framer = new SseFramer(this::onEvent, limits.maxEventBytes());
        } else {
            final int usual = ok ? 1024 : 256;
            body = new Body(announcedLength >= 0 ? (int) Math.min(announcedLength, ok ? 64 * 1024 : MAX_ERROR_BODY)
                    : usual);
        }
    }

    @Override
    protected int capacityIncrement() {
        return 64 * 1024;
    }

    @Override
    protected void data(final ByteBuffer src, final boolean endOfStream) throws IOException {
        try {
            receive(src, endOfStream, clock.nanoTime());
        } catch (Error e) {
            // Fails this request only: an Error escaping here would kill the I/O thread and hang every request.
            throw new IOException("internal error while reading the response: " + e, e);
        }
    }

    /** Body bytes that arrived at {@code now}; consumes all of {@code src}. */
    void receive(final ByteBuffer src, final boolean endOfStream, final long now) throws IOException {
        lastByteNanos = now;
        if (src.hasRemaining()) {
            if (firstByteNanos < 0) {
                firstByteNanos = now;
            }
            if (now != lastReadNanos) { // a chunked body's pieces of one socket read arrive with its one stamp
                lastReadNanos = now;
                reads++;
            }
        }
        receivedBytes += src.remaining();
        if (receivedBytes > limits.maxResponseBytes()) {
            throw new ResponseTooLargeException("response too large: more than " + limits.maxResponseBytes()
                    + " bytes (--max-response-bytes)");
        }
        if (sse) {
            framer.feed(src, now);
            if (endOfStream) {
                framer.finish(now);
            }
            return;
        }
        final int n = src.remaining();
        final boolean ok = status >= 200 && status < 300;
        if (ok || body.size() < MAX_ERROR_BODY) {
            final int take = ok ? n : Math.min(n, MAX_ERROR_BODY - body.size());
            if (src.hasArray()) { // straight from the read buffer: no copy per read
                body.write(src.array(), src.arrayOffset() + src.position(), take);
            } else {
                final byte[] tmp = new byte[take];
                src.get(tmp);
                body.write(tmp, 0, take);
            }
        }
        src.position(src.limit());
    }

    private void onEvent(final byte[] buf, final int off, final int len, final long arrivalNanos) {
        int dataStart = -1;
        int dataEnd = -1;
        byte[] joined = null;
        boolean errorEvent = false;
        int i = off;
        final int end = off + len;
        while (i < end) {
            int lineEnd = i;
            while (lineEnd < end && buf[lineEnd] != '\n' && buf[lineEnd] != '\r') {
                lineEnd++;
            }
            if (!errorEvent && buf[i] == 'e' && isErrorEvent(buf, i, lineEnd)) {
                errorEvent = true;
            }
            // llama.cpp's server reports a failure mid-stream as an "error:" field holding the error object,
            // where others send "event: error" with a data line: both are the stream's error.
            final boolean data = buf[i] == 'd' && isField(buf, i, lineEnd, DATA_FIELD);
            final boolean error = !data && buf[i] == 'e' && isField(buf, i, lineEnd, ERROR_FIELD);
            errorEvent |= error;
            if (data || error) {
                int s = i + (data ? DATA_FIELD.length : ERROR_FIELD.length);
                if (s < lineEnd && buf[s] == ' ') {
                    s++;
                }
                if (dataStart < 0) {
                    dataStart = s;
                    dataEnd = lineEnd;
                } else {
                    // Several data lines in one event are joined with '\n' (rare; copies once).
                    final byte[] prev = joined != null ? joined : Arrays.copyOfRange(buf, dataStart, dataEnd);
                    joined = Arrays.copyOf(prev, prev.length + 1 + (lineEnd - s));
                    joined[prev.length] = '\n';
                    System.arraycopy(buf, s, joined, prev.length + 1, lineEnd - s);
                }
            }
            i = lineEnd + 1;
        }
        if (dataStart < 0) {
            return;
        }
        final byte[] src = joined != null ? joined : buf;
        final int from = joined != null ? 0 : dataStart;
        final int length = joined != null ? joined.length : dataEnd - dataStart;
        if (length == DONE.length && Arrays.equals(src, from, from + length, DONE, 0, DONE.length)) {
            return;
        }
        try {
            parser.parse(src, from, length, chunk);
        } catch (IOException malformed) {
            if (errorEvent && streamError == null) {
                streamError = new ErrorDetails(null, "SSEError", abbreviate(new String(src, from, length,
                        StandardCharsets.UTF_8)));
            }
            // Skipped, not fatal (AIPerf's endpoint and streaming docs), but counted on the record: never silent.
            malformedChunks++;
            return;
        }
        if ((errorEvent || chunk.errorMessage != null) && streamError == null) {
            // A 200 stream that reports an error is a failed request, whatever content came before it.
            // An error event without an "error" field ({"message": ...}, {"detail": ...}) keeps its data as the
            // message: what the server said is the one clue the user gets.
            streamError = new ErrorDetails(null, chunk.errorType != null ? chunk.errorType : "SSEError",
                    chunk.errorMessage != null ? chunk.errorMessage
                            : abbreviate(new String(src, from, length, StandardCharsets.UTF_8)));
            return;
        }
        accept(arrivalNanos);
    }

    private static Integer or(final Integer given, final Integer earlier) {
        return given != null ? given : earlier;
    }

    /** Whether the line from {@code from} to {@code to} starts with the field name {@code name} (colon included). */
    private static boolean isField(final byte[] buf, final int from, final int to, final byte[] name) {
        return to - from >= name.length && Arrays.equals(buf, from, from + name.length, name, 0, name.length);
    }

    /** Whether a line is {@code event: error}, read from the bytes (no String per line on the hot path). */
    private static boolean isErrorEvent(final byte[] buf, final int from, final int to) {
        int i = from;
        for (final byte c : EVENT_FIELD) {
            if (i >= to || buf[i++] != c) {
                return false;
            }
        }
        while (i < to && buf[i] == ' ') {
            i++;
        }
        for (final byte c : ERROR_NAME) {
            if (i >= to || buf[i++] != c) {
                return false;
            }
        }
        while (i < to && buf[i] == ' ') {
            i++;
        }
        return i == to;
    }

    private void accept(final long arrivalNanos) {
        if (chunk.hasUsage && chunk.partialUsage && usage != null) {
            usage = new Usage(or(chunk.promptTokens, usage.promptTokens()),
                    or(chunk.completionTokens, usage.completionTokens()), or(chunk.totalTokens, usage.totalTokens()),
                    or(chunk.reasoningTokens, usage.reasoningTokens()),
                    or(chunk.cacheReadTokens, usage.cacheReadTokens()));
        } else if (chunk.hasUsage) {
            usage = new Usage(chunk.promptTokens, chunk.completionTokens, chunk.totalTokens, chunk.reasoningTokens,
                    chunk.cacheReadTokens);
        }
        if (!chunk.isContentResponse()) {
            return;
        }
        if (firstChunkTokens < 0 && chunk.hasUsage && chunk.completionTokens != null) {
            firstChunkTokens = chunk.completionTokens; // cumulative: the tokens delivered through this chunk
        }
        if (contentCount == contentNanos.length) {
            contentNanos = Arrays.copyOf(contentNanos, contentCount * 2);
        }
        contentNanos[contentCount++] = arrivalNanos;
        if (contentCount == 1 && firstContentListener != null) {
            firstContentListener.run();
        }
        if (chunk.content != null && !chunk.content.isEmpty()) {
            if (firstOutputIndex < 0) {
                firstOutputIndex = contentCount - 1;
            }
            if (content == null) {
                content = new StringBuilder(256);
            }
            content.append(chunk.content);
        }
        if (chunk.reasoning != null && !chunk.reasoning.isEmpty()) {
            if (reasoning == null) {
                reasoning = new StringBuilder(256);
            }
            reasoning.append(chunk.reasoning);
        }
    }

    @Override
    protected ResponseData buildResult() {
        return result();
    }

    /** The record of a response that arrived whole. */
    ResponseData result() {
        ErrorDetails error = null;
        if (status < 200 || status >= 300) {
            final String text = body == null ? "" : body.toString(StandardCharsets.UTF_8);
            error = new ErrorDetails(status, reason == null || reason.isEmpty() ? "HTTP " + status : reason,
                    location == null ? text : redirectMessage(text));
        } else if (streamError != null) {
            error = streamError;
        } else if (!sse) {
            try {
                parser.parse(body.bytes(), 0, body.size(), chunk);
                if (chunk.errorMessage != null) {
                    error = new ErrorDetails(status, chunk.errorType, chunk.errorMessage);
                } else {
                    accept(lastByteNanos >= 0 ? lastByteNanos : ackNanos);
                }
            } catch (IOException malformed) {
                error = new ErrorDetails(status, "InvalidResponseError",
                        "Response body is not valid JSON: " + abbreviate(body.toString(StandardCharsets.UTF_8)));
            }
        }
        if (error == null && contentCount == 0) {
            error = new ErrorDetails(null, "InvalidInferenceResultError",
                    "No responses with actual content were received from the server (only usage/metadata, "
                            + "null/empty data, or [DONE] markers)");
        }
        return result(error);
    }

    /**
     * The record of a request that failed in transport, on the I/O thread that read it: keeps whatever arrived
     * before the failure.
     */
    ResponseData failure(final Exception cause) {
        return result(details(cause));
    }

    /**
     * The record of a request cancelled from another thread (its timeout, the end of the grace period): only the
     * stamps that thread may safely read, never the response state the I/O thread is still writing.
     */
    ResponseData cancelled(final Exception cause) {
        return new ResponseData(startPerfNanos, -1, new long[0], 0, -1, null, null, null, details(cause), 0, times());
    }

    /**
     * A request cancelled on purpose (AIPerf's request cancellation): error 499 RequestCancellationError, as
     * upstream records it. Reads only thread-safe stamps, like {@link #cancelled(Exception)}.
     */
    ResponseData cancelledAsAsked(final long cancelNanos) {
        final double seconds = Math.max(0, cancelNanos - startPerfNanos) / 1e9;
        return new ResponseData(startPerfNanos, -1, new long[0], 0, -1, null, null, null, new ErrorDetails(499,
                "RequestCancellationError", String.format(java.util.Locale.ROOT,
                "Request was cancelled after %.3f seconds", seconds)), 0, times());
    }

    /** A redirect that was not followed: where to, and why not. */
    private String redirectMessage(final String body) {
        final String why = locationRefused != null ? "not followed: " + locationRefused
                : status == 307 || status == 308 ? "not followed (more than " + Redirects.MAX + " redirects, or a target this client does not carry)"
                : "not followed: a " + status + " turns the POST into a GET; point --url at the Location";
        return "Redirected to " + location + ", " + why + (body.isEmpty() ? "" : ": " + abbreviate(body));
    }

    private static ErrorDetails details(final Exception cause) {
        final String type = cause.getClass().getSimpleName();
        return new ErrorDetails(null, type, cause.getMessage() == null ? type : cause.getMessage());
    }

    private io.aiperf.engine.record.TransportTimes times() {
        return new io.aiperf.engine.record.TransportTimes(issuedNanos, connectStartNanos, connectDoneNanos, retried,
                redirects, closesAfterResponse, new io.aiperf.engine.record.TransportTimes.Wire(status, reason,
                firstByteNanos, lastByteNanos, receivedBytes, reads, writtenNanos, bytesSent,
                newConnection || connectStartNanos >= 0));
    }

    private ResponseData result(final ErrorDetails error) {
        return new ResponseData(startPerfNanos, ackNanos, contentNanos, contentCount, firstOutputIndex,
                content == null ? null : content.toString(), reasoning == null ? null : reasoning.toString(),
                usage, error, malformedChunks, times(), sse, firstChunkTokens);
    }

    private static String abbreviate(final String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    @Override
    public void releaseResources() {
        // nothing pooled
    }

    /** A body's bytes, parsed where they were collected instead of through a copy per answer. */
    private static final class Body extends ByteArrayOutputStream {
        Body(final int size) {
            super(size);
        }

        /** The bytes so far, valid up to {@link #size()}, until the next write. */
        byte[] bytes() {
            return buf;
        }
    }
}
