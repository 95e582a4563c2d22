package io.aiperf.engine.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.hc.core5.http.ConnectionClosedException;

/**
 * Reads one HTTP/1.1 response after another from a connection's bytes (RFC 9112): the head, then a body framed by
 * Content-Length, chunked transfer coding, or the end of the connection. Body bytes are handed on in place, without
 * copies, stamped with the time their read returned. Interim (1xx) responses are skipped. Where reads are cut never
 * changes what is handed on (a test feeds every split). Not thread-safe: one per connection, on its event loop.
 * <p>
 * It is over 400 lines because HTTP/1.1's three body framings and the interim responses are one state machine fed
 * split reads, and its states only make sense together.
 */
final class Http1ResponseReader {
    /** Receives one response. */
    interface Sink {
        /** @param mimeType the Content-Type without parameters, or null when there is none */
        void head(int status, String reason, String mimeType, long nanos) throws IOException;

        /** Body bytes; the sink consumes all of {@code bytes}. The last call has {@code end} set (and may be empty). */
        void body(ByteBuffer bytes, boolean end, long nanos) throws IOException;

        /** The final response's head as it arrived, before {@link #head}; valid during the call only. */
        default void rawHead(final byte[] bytes, final int length) {
        }
    }

    /** The largest response head accepted unless configured otherwise ({@code --max-response-head-bytes}). */
    static final int DEFAULT_MAX_HEAD_BYTES = io.aiperf.engine.config.RunLimits.DEFAULT_MAX_HEAD_BYTES;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();
    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] CONTENT_TYPE = ascii("content-type");
    private static final byte[] CONNECTION = ascii("connection");
    private static final byte[] LOCATION = ascii("location");
    private static final byte[] CHUNKED = ascii("chunked");
    private static final byte[] CLOSE = ascii("close");
    private static final byte[] KEEP_ALIVE = ascii("keep-alive");

    /** A chunk size of more digits than a long holds is no size. */
    private static final int MAX_CHUNK_DIGITS = 16;

    private enum State { HEAD, LENGTH, CHUNK_SIZE, CHUNK_EXTENSION, CHUNK_DATA, CHUNK_END, TRAILER, UNTIL_CLOSE, DONE }

    private Sink sink;
    private State state = State.HEAD;
    private byte[] head = new byte[512];
    private long announcedLength = -1;
    private int headLength;
    private long remaining;
    private boolean sawChunkDigit;
    /** Hex digits of the current chunk size, leading zeros included. */
    private int chunkDigits;
    /** A CR was read on the current chunk-size line or chunk end: only an LF may follow. */
    private boolean lineCr;
    private int trailerLineLength;
    /**
     * Bytes that framed the response but carried none of it: interim (1xx) heads, chunk extensions and trailers.
     * They count against the head limit together, so an endless stream of any of them ends as an error.
     */
    private long framingBytes;
    private boolean keepAlive;
    private boolean closeAnnounced;
    private int status;
    private String location;
    private String lastReason;
    private String lastMimeType;
    private boolean started;
    private final int maxHeadBytes;
    // The head's fields as parseHead reads them: fields, not locals, so that each field is read by a method of its own.
    private long fieldLength;
    private boolean fieldCodings;
    private boolean fieldChunked;
    private boolean fieldClose;
    private String fieldMimeType;

    Http1ResponseReader() {
        this(DEFAULT_MAX_HEAD_BYTES);
    }

    /** @param maxHeadBytes the largest response head accepted; a larger one is an error at once */
    Http1ResponseReader(final int maxHeadBytes) {
        this.maxHeadBytes = maxHeadBytes;
    }

    /** Starts reading the next response into {@code sink}. */
    void reset(final Sink next) {
        sink = next;
        state = State.HEAD;
        headLength = 0;
        started = false;
        keepAlive = false;
        closeAnnounced = false;
        location = null;
        status = 0;
        framingBytes = 0;
    }

    /** Whether any byte of the current response has arrived. */
    boolean started() {
        return started;
    }

    /** Whether a successful (2xx) response said {@code Connection: close}: its server closes after its answers. */
    boolean closeAnnounced() {
        return closeAnnounced && status >= 200 && status < 300;
    }

    /** The response's Location header, or null. */
    String location() {
        return location;
    }

    /** Whether the connection may carry another request after this response. */
    boolean keepAlive() {
        return keepAlive;
    }

    /** The body's length as the current response's Content-Length gives it, or -1 (chunked, none); set by the head. */
    long announcedLength() {
        return announcedLength;
    }

    /**
     * Reads from {@code in} up to the end of the current response.
     *
     * @return whether the response is complete; bytes after its end are left in {@code in}
     */
    boolean feed(final ByteBuffer in, final long nanos) throws IOException {
        if (in.hasRemaining()) {
            started = true;
        }
        while (in.hasRemaining() && state != State.DONE) {
            switch (state) {
                case HEAD -> readHead(in, nanos);
                case LENGTH -> {
                    final int n = (int) Math.min(remaining, in.remaining());
                    remaining -= n;
                    deliver(in, n, nanos);
                    if (remaining == 0) {
                        end(nanos);
                    }
                }
                case CHUNK_SIZE -> chunkSize(in.get());
                case CHUNK_EXTENSION -> {
                    framing(1);
                    if (in.get() == '\n') {
                        chunkSizeDone();
                    }
                }
                case CHUNK_DATA -> {
                    final int n = (int) Math.min(remaining, in.remaining());
                    remaining -= n;
                    deliver(in, n, nanos);
                    if (remaining == 0) {
                        state = State.CHUNK_END;
                    }
                }
                case CHUNK_END -> {
                    final byte b = in.get();
                    if (b == '\n') {
                        state = State.CHUNK_SIZE;
                        remaining = 0;
                        sawChunkDigit = false;
                        lineCr = false;
                    } else if (b != '\r' || lineCr) {
                        throw new IOException("Malformed chunked body: no line end after a chunk's data");
                    } else {
                        lineCr = true;
                    }
                }
                case TRAILER -> {
                    framing(1);
                    final byte b = in.get();
                    if (b == '\n') {
                        if (trailerLineLength == 0) {
                            end(nanos);
                        }
                        trailerLineLength = 0;
                    } else if (b != '\r') {
                        trailerLineLength++;
                    }
                }
                case UNTIL_CLOSE -> deliver(in, in.remaining(), nanos);
                default -> throw new IllegalStateException(state.name());
            }
        }
        // A body that ends with its head (Content-Length: 0, 204, 304) ends here too.
        if (state == State.LENGTH && remaining == 0) {
            end(nanos);
        }
        return state == State.DONE;
    }

    /**
     * The connection ended.
     *
     * @return whether that completed the response (a body delimited by the end of the connection)
     * @throws ConnectionClosedException when the response was cut short
     */
    boolean endOfInput(final long nanos) throws IOException {
        if (state == State.UNTIL_CLOSE) {
            end(nanos);
            return true;
        }
        if (state == State.DONE) {
            return true;
        }
        throw new ConnectionClosedException(!started ? "Connection closed by peer"
                : state == State.HEAD ? "Connection closed before the response head was complete"
                : "Premature end of " + (state == State.LENGTH ? "Content-Length delimited" : "chunk coded")
                        + " message body");
    }

    private void deliver(final ByteBuffer in, final int n, final long nanos) throws IOException {
        if (n == 0) {
            return;
        }
        final int limit = in.limit();
        final int end = in.position() + n;
        in.limit(end);
        try {
            sink.body(in, false, nanos);
        } finally {
            in.limit(limit);
            in.position(end);
        }
    }

    private void end(final long nanos) throws IOException {
        state = State.DONE;
        sink.body(EMPTY.duplicate(), true, nanos);
    }

    private void chunkSize(final byte b) throws IOException {
        final int digit = Character.digit(b, 16);
        if (lineCr && b != '\n') {
            throw new IOException("Malformed chunked body: a CR not followed by LF in a chunk size");
        }
        if (digit >= 0) {
            // Leading zeros count too: an endless "000..." never overflows, and would never end.
            if (++chunkDigits > MAX_CHUNK_DIGITS) {
                throw new IOException("Malformed chunked body: chunk size longer than " + MAX_CHUNK_DIGITS + " digits");
            }
            remaining = (remaining << 4) + digit;
            sawChunkDigit = true;
        } else if (b == ';' || b == ' ' || b == '\t') {
            state = State.CHUNK_EXTENSION;
        } else if (b == '\n') {
            chunkSizeDone();
        } else if (b == '\r') {
            lineCr = true;
        } else {
            throw new IOException("Malformed chunked body: bad chunk size");
        }
    }

    private void chunkSizeDone() throws IOException {
        if (!sawChunkDigit) {
            throw new IOException("Malformed chunked body: missing chunk size");
        }
        lineCr = false;
        chunkDigits = 0;
        if (remaining == 0) {
            state = State.TRAILER;
            trailerLineLength = 0;
        } else {
            state = State.CHUNK_DATA;
        }
    }

    private void framing(final int bytes) throws IOException {
        framingBytes += bytes;
        if (framingBytes > maxHeadBytes) {
            throw new IOException("Response framing (interim responses, chunk extensions, trailers) larger than "
                    + maxHeadBytes + " bytes (--max-response-head-bytes)");
        }
    }

    /** Collects the head until its blank line, then parses it. */
    private void readHead(final ByteBuffer in, final long nanos) throws IOException {
        // Copied in bulk and scanned in the array: a get() per byte of the read buffer was the loop's largest Java
        // frame of a non-streamed answer. Bytes after the head go back to {@code in} for the body.
        while (in.hasRemaining()) {
            if (headLength == head.length) {
                if (head.length >= maxHeadBytes) {
                    throw new IOException("Response head larger than " + maxHeadBytes + " bytes "
                            + "(--max-response-head-bytes)");
                }
                head = java.util.Arrays.copyOf(head, Math.min(maxHeadBytes, head.length * 2));
            }
            final int from = headLength;
            final int position = in.position();
            final int n = Math.min(in.remaining(), head.length - from);
            in.get(head, from, n);
            headLength = from + n;
            for (int k = from; k < headLength; k++) {
                if (head[k] == '\n' && endsHead(k + 1)) {
                    in.position(position + k + 1 - from);
                    headLength = k + 1;
                    parseHead(nanos);
                    return;
                }
            }
        }
    }

    /** Whether the head's first {@code n} bytes end with an empty line (LF LF or LF CR LF). */
    private boolean endsHead(final int n) {
        return n >= 2 && (head[n - 2] == '\n' || (n >= 3 && head[n - 2] == '\r' && head[n - 3] == '\n'));
    }

    private void parseHead(final long nanos) throws IOException {
        final int statusEnd = lineEnd(0);
        // Status line: HTTP/1.x SP 3DIGIT [SP reason]
        if (statusEnd < 12 || head[0] != 'H' || head[1] != 'T' || head[2] != 'T' || head[3] != 'P' || head[4] != '/'
                || head[8] != ' ') {
            throw new IOException("Malformed response status line: "
                    + new String(head, 0, Math.min(statusEnd, 80), StandardCharsets.ISO_8859_1));
        }
        int status = 0;
        for (int i = 9; i < 12; i++) {
            if (head[i] < '0' || head[i] > '9') {
                throw new IOException("Malformed response status code");
            }
            status = status * 10 + (head[i] - '0');
        }
        final String reason = statusEnd > 13 ? lastReason = text(13, trimEnd(13, statusEnd), lastReason) : "";
        fieldLength = -1;
        fieldCodings = false;
        fieldChunked = false;
        fieldClose = head[5] == '1' && head[7] == '0'; // HTTP/1.0 closes unless it says keep-alive
        fieldMimeType = null;
        // One pass over the fields: each line is scanned to its colon, then to its end.
        int i = next(statusEnd);
        while (i < headLength && !blankLineAt(i)) {
            if (head[i] == ' ' || head[i] == '\t') {
                unfold(); // whitespace before the first field: an error
            }
            int colon = i;
            while (colon < headLength && head[colon] != ':' && head[colon] != '\n') {
                colon++;
            }
            if (colon == headLength || head[colon] != ':') {
                i = next(colon); // a line without a colon says nothing
                continue;
            }
            final int lineEnd = lineEnd(colon);
            final int following = next(lineEnd);
            if (following < headLength && (head[following] == ' ' || head[following] == '\t')) {
                // An obs-fold continues this field, as old servers may still send: rare, so undone here and the
                // head read again, before this field's value is taken in part.
                unfold();
                parseHead(nanos);
                return;
            }
            final int v = skipSpace(colon + 1, lineEnd);
            field(i, colon, v, trimEnd(v, lineEnd));
            i = following;
        }
        if (status >= 200) {
            sink.rawHead(head, headLength);
        } else {
            framing(headLength);
        }
        headLength = 0;
        if (status >= 100 && status < 200) {
            closeAnnounced = false;
            location = null;
            return; // an interim response: the real one follows
        }
        final boolean chunked = fieldChunked;
        // Transfer codings without chunked last: the body runs to the end of the connection, whatever the length.
        final long contentLength = fieldCodings && !chunked ? -1 : fieldLength;
        final boolean close = fieldClose;
        this.status = status;
        announcedLength = chunked ? -1 : contentLength;
        sink.head(status, reason, fieldMimeType, nanos);
        if (status == 204 || status == 304) {
            state = State.LENGTH;
            remaining = 0;
            keepAlive = !close;
        } else if (chunked) {
            state = State.CHUNK_SIZE;
            remaining = 0;
            sawChunkDigit = false;
            chunkDigits = 0;
            lineCr = false;
            keepAlive = !close;
        } else if (contentLength >= 0) {
            state = State.LENGTH;
            remaining = contentLength;
            keepAlive = !close;
        } else {
            state = State.UNTIL_CLOSE;
            keepAlive = false;
        }
    }

    /**
     * One header field, named by the head's bytes {@code [name, colon)} with its value at {@code [v, vEnd)}: the
     * name's length picks the one field it can be, so most fields cost one comparison.
     */
    private void field(final int name, final int colon, final int v, final int vEnd) throws IOException {
        switch (colon - name) {
            case 14 -> { // content-length
                if (nameIs(name, colon, CONTENT_LENGTH)) {
                    final long length = parseLength(v, vEnd);
                    if (fieldLength >= 0 && length != fieldLength) {
                        // Two lengths: which one frames the body is anyone's guess, and a wrong guess desyncs
                        // the connection (RFC 9112, section 6.3).
                        throw new IOException("Conflicting Content-Length headers in the response: " + fieldLength
                                + " and " + length);
                    }
                    fieldLength = length;
                }
            }
            case 17 -> { // transfer-encoding: chunked frames the body only as the last coding (RFC 9112, 6.3)
                if (nameIs(name, colon, TRANSFER_ENCODING) && vEnd > v) {
                    fieldCodings = true;
                    fieldChunked = lastElementIs(v, vEnd, CHUNKED);
                }
            }
            case 12 -> { // content-type, without its parameters
                if (nameIs(name, colon, CONTENT_TYPE)) {
                    int semi = v;
                    while (semi < vEnd && head[semi] != ';') {
                        semi++;
                    }
                    fieldMimeType = lastMimeType = text(v, trimEnd(v, semi), lastMimeType);
                }
            }
            case 10 -> { // connection: a list of options, of which close wins
                if (nameIs(name, colon, CONNECTION)) {
                    if (hasToken(v, vEnd, CLOSE)) {
                        fieldClose = true;
                        closeAnnounced = true;
                    } else if (!closeAnnounced && hasToken(v, vEnd, KEEP_ALIVE)) { // a close on another line wins
                        fieldClose = false;
                    }
                }
            }
            case 8 -> {
                if (nameIs(name, colon, LOCATION)) {
                    location = new String(head, v, vEnd - v, StandardCharsets.ISO_8859_1);
                }
            }
            default -> {
            }
        }
    }

    /** Whether the comma-separated list at {@code [from, to)} holds {@code lowerToken}, in any case. */
    private boolean hasToken(final int from, final int to, final byte[] lowerToken) {
        int start = from;
        while (start < to) {
            int end = start;
            while (end < to && head[end] != ',') {
                end++;
            }
            start = skipSpace(start, end);
            if (nameIs(start, trimEnd(start, end), lowerToken)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    /** Whether the last non-empty element of the list at {@code [from, to)} is {@code lowerToken}, in any case. */
    private boolean lastElementIs(final int from, final int to, final byte[] lowerToken) {
        int end = to;
        while (true) {
            int start = end;
            while (start > from && head[start - 1] != ',') {
                start--;
            }
            final int a = skipSpace(start, end);
            final int b = trimEnd(a, end);
            if (b > a || start == from) {
                return nameIs(a, b, lowerToken);
            }
            end = start - 1; // an empty element, which a list may hold (RFC 9110, section 5.6.1)
        }
    }

    /** Whether the line at {@code i} is the empty line that ends the head. */
    private boolean blankLineAt(final int i) {
        return head[i] == '\n' || (head[i] == '\r' && i + 1 < headLength && head[i + 1] == '\n');
    }

    private int lineEnd(final int from) {
        int i = from;
        while (i < headLength && head[i] != '\n') {
            i++;
        }
        return i > from && head[i - 1] == '\r' ? i - 1 : i;
    }

    /** The start of the line after the one ending at {@code lineEnd}. */
    private int next(final int lineEnd) {
        int i = lineEnd;
        while (i < headLength && head[i] != '\n') {
            i++;
        }
        return i + 1;
    }

    private int skipSpace(final int from, final int to) {
        int s = from;
        while (s < to && (head[s] == ' ' || head[s] == '\t')) {
            s++;
        }
        return s;
    }

    private int trimEnd(final int from, final int to) {
        int e = to;
        while (e > from && (head[e - 1] == ' ' || head[e - 1] == '\t')) {
            e--;
        }
        return e;
    }

    private boolean nameIs(final int from, final int to, final byte[] lowerName) {
        if (to - from != lowerName.length) {
            return false;
        }
        for (int k = 0; k < lowerName.length; k++) {
            if (lower(head[from + k]) != lowerName[k]) {
                return false;
            }
        }
        return true;
    }

    /** A Content-Length value; a list of equal values ({@code 42, 42}) is that value, unequal ones an error. */
    private long parseLength(final int from, final int to) throws IOException {
        long value = -1;
        int k = from;
        while (true) {
            while (k < to && (head[k] == ' ' || head[k] == '\t')) {
                k++;
            }
            long n = 0;
            final int digits = k;
            while (k < to && head[k] != ',' && head[k] != ' ' && head[k] != '\t') {
                final int d = head[k] - '0';
                if (d < 0 || d > 9 || n > (Long.MAX_VALUE - 9) / 10) {
                    throw new IOException("Malformed Content-Length");
                }
                n = n * 10 + d;
                k++;
            }
            while (k < to && (head[k] == ' ' || head[k] == '\t')) {
                k++;
            }
            if (k == digits || (k < to && head[k] != ',')) {
                throw new IOException("Malformed Content-Length");
            }
            if (value >= 0 && n != value) {
                throw new IOException("Conflicting Content-Length values in the response: " + value + " and " + n);
            }
            value = n;
            if (k == to) {
                return value;
            }
            k++; // the comma
        }
    }

    /**
     * Replaces each obs-fold (a line break followed by spaces or tabs, an old way of continuing a field value) with
     * spaces, as RFC 9112 (section 5.2) has a recipient do before it reads the field; whitespace right after the
     * status line is rejected, as the same RFC allows (section 2.2).
     */
    private void unfold() throws IOException {
        final int end = headLength - 1; // the blank line is no fold
        boolean statusLine = true;
        for (int k = 0; k < end; k++) {
            if (head[k] != '\n' || (head[k + 1] != ' ' && head[k + 1] != '\t')) {
                if (head[k] == '\n') {
                    statusLine = false;
                }
                continue;
            }
            if (statusLine) {
                throw new IOException("Malformed response head: whitespace before its first header field");
            }
            head[k] = ' ';
            if (k > 0 && head[k - 1] == '\r') {
                head[k - 1] = ' ';
            }
        }
    }

    /**
     * The head's bytes {@code [from, to)} as text: {@code previous} when they spell it, so a connection's answers,
     * which repeat their reason and media type, do not make new Strings of them each time.
     */
    private String text(final int from, final int to, final String previous) {
        if (previous != null && previous.length() == to - from) {
            int k = 0;
            while (k < previous.length() && previous.charAt(k) == (head[from + k] & 0xFF)) {
                k++;
            }
            if (k == previous.length()) {
                return previous;
            }
        }
        return new String(head, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /** An ASCII letter in lower case; every other byte as it is (a CR is no hyphen). */
    private static int lower(final byte c) {
        return c >= 'A' && c <= 'Z' ? c | 0x20 : c;
    }

    private static byte[] ascii(final String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
