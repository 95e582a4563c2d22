package io.aiperf.engine.client;

import java.nio.ByteBuffer;

/**
 * Frames a server-sent-event stream from raw bytes (reference §5.5): bytes are buffered until an event
 * delimiter ({@code \n\n} or {@code \r\n\r\n}) and only whole events are handed on, each with the arrival
 * time of the bytes that completed it. Multi-byte characters split across reads are therefore safe.
 * Not thread-safe: one instance per response, fed from one I/O thread.
 */
public final class SseFramer {
    /** Receives one complete event; the bytes are valid only during the call. */
    public interface EventHandler {
        void onEvent(byte[] buf, int offset, int length, long arrivalNanos);
    }

    private final EventHandler handler;
    private final long maxEventBytes;
    private byte[] buf = new byte[1024];
    private int len;
    private int scanFrom;

    /** @param maxEventBytes the largest event accepted (bytes pending without a delimiter) */
    public SseFramer(final EventHandler handler, final long maxEventBytes) {
        this.handler = handler;
        this.maxEventBytes = maxEventBytes;
    }

    /** @throws ResponseTooLargeException when more than {@code maxEventBytes} arrive without an event delimiter */
    public void feed(final ByteBuffer src, final long arrivalNanos) throws ResponseTooLargeException {
        if ((long) len + src.remaining() > maxEventBytes + 4L) { // + room for the delimiter that would end it
            feedWithinBound(src, arrivalNanos);
            return;
        }
        append(src, arrivalNanos);
    }

    /** Splits an oversized read so complete events inside it are still found before the bound is judged. */
    private void feedWithinBound(final ByteBuffer src, final long arrivalNanos) throws ResponseTooLargeException {
        while (src.hasRemaining()) {
            final int room = (int) Math.max(1, Math.min(src.remaining(), maxEventBytes + 4L - len));
            final ByteBuffer part = src.slice();
            part.limit(room);
            src.position(src.position() + room);
            append(part, arrivalNanos);
            if (len > maxEventBytes) {
                throw new ResponseTooLargeException("SSE event too large: more than " + maxEventBytes
                        + " bytes without an event delimiter (--max-event-bytes)");
            }
        }
    }

    private void append(final ByteBuffer src, final long arrivalNanos) {
        final int n = src.remaining();
        if (len + n > buf.length) {
            final byte[] bigger = new byte[Math.max(buf.length * 2, len + n)];
            System.arraycopy(buf, 0, bigger, 0, len);
            buf = bigger;
        }
        src.get(buf, len, n);
        len += n;
        int eventStart = 0;
        int i = Math.max(scanFrom, 1);
        while (i < len) {
            if (buf[i] == '\n' && (buf[i - 1] == '\n'
                    || (i >= 3 && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r'))) {
                final int eventEnd = buf[i - 1] == '\n' ? i - 1 : i - 3;
                if (eventEnd > eventStart) {
                    handler.onEvent(buf, eventStart, eventEnd - eventStart, arrivalNanos);
                }
                eventStart = i + 1;
                i = eventStart + 1;
            } else {
                i++;
            }
        }
        if (eventStart > 0) {
            System.arraycopy(buf, eventStart, buf, 0, len - eventStart);
            len -= eventStart;
        }
        scanFrom = Math.max(len - 1, 0);
    }

    /** An event left without a trailing delimiter when the stream ends is still delivered. */
    public void finish(final long arrivalNanos) {
        int end = len;
        while (end > 0 && (buf[end - 1] == '\n' || buf[end - 1] == '\r')) {
            end--;
        }
        if (end > 0) {
            handler.onEvent(buf, 0, end, arrivalNanos);
        }
        len = 0;
        scanFrom = 0;
    }
}
