package io.aiperf.engine.client;

import java.nio.ByteBuffer;

/**
 * Frames a server-sent-event stream from raw bytes (AIPerf's endpoint and streaming docs; the SSE format of the HTML standard): a line
 * ends with CRLF, LF or CR, and an empty line ends an event. Bytes are buffered until then and only whole events
 * are handed on, each with the arrival time of the bytes that completed it, so multi-byte characters split across
 * reads are safe. A byte-at-a-time state machine: where the reads are cut never changes the events (a fuzz test
 * holds it to that). Not thread-safe: one instance per response, fed from one I/O thread.
 */
public final class SseFramer {
    /** Receives one complete event (its lines, without the blank line that ended it); valid only during the call. */
    public interface EventHandler {
        void onEvent(byte[] buf, int offset, int length, long arrivalNanos);
    }

    private final EventHandler handler;
    private final long maxEventBytes;
    private byte[] buf = new byte[1024];
    private int len;
    private int eventStart;
    /** Where the text of the current event ends so far: the terminator of its last non-empty line. */
    private int contentEnd;
    private boolean atLineStart = true;
    private boolean lastWasCr;

    /** @param maxEventBytes the largest event accepted (bytes pending without an empty line) */
    public SseFramer(final EventHandler handler, final long maxEventBytes) {
        this.handler = handler;
        this.maxEventBytes = maxEventBytes;
    }

    /** @throws ResponseTooLargeException when more than {@code maxEventBytes} arrive without ending an event */
    public void feed(final ByteBuffer src, final long arrivalNanos) throws ResponseTooLargeException {
        while (src.hasRemaining()) {
            final int room = (int) Math.min(src.remaining(), Math.max(1, maxEventBytes + 1 - (len - eventStart)));
            ensureCapacity(room);
            src.get(buf, len, room);
            final int from = len;
            len += room;
            scan(from, arrivalNanos);
            compact();
            if (len - eventStart > maxEventBytes) {
                throw new ResponseTooLargeException("SSE event too large: more than " + maxEventBytes
                        + " bytes without an event delimiter (--max-event-bytes)");
            }
        }
    }

    private void scan(final int from, final long arrivalNanos) {
        for (int i = from; i < len; i++) {
            final byte b = buf[i];
            if (lastWasCr && b == '\n') {
                lastWasCr = false;
                if (eventStart == i) {
                    eventStart = i + 1; // the LF of a CRLF that ended an event
                }
                continue;
            }
            lastWasCr = b == '\r';
            if (b != '\r' && b != '\n') {
                atLineStart = false;
                continue;
            }
            if (atLineStart) { // an empty line: the event is complete
                if (contentEnd > eventStart) {
                    handler.onEvent(buf, eventStart, contentEnd - eventStart, arrivalNanos);
                }
                eventStart = i + 1;
                contentEnd = eventStart;
            } else {
                atLineStart = true;
                contentEnd = i;
            }
        }
    }

    private void ensureCapacity(final int more) {
        if (len + more > buf.length) {
            final byte[] bigger = new byte[Math.max(buf.length * 2, len + more)];
            System.arraycopy(buf, 0, bigger, 0, len);
            buf = bigger;
        }
    }

    private void compact() {
        if (eventStart > 0) {
            System.arraycopy(buf, eventStart, buf, 0, len - eventStart);
            len -= eventStart;
            contentEnd = Math.max(0, contentEnd - eventStart);
            eventStart = 0;
        }
    }

    /** An event left without a trailing empty line when the stream ends is still delivered. */
    public void finish(final long arrivalNanos) {
        int end = len;
        while (end > eventStart && (buf[end - 1] == '\n' || buf[end - 1] == '\r')) {
            end--;
        }
        if (end > eventStart) {
            handler.onEvent(buf, eventStart, end - eventStart, arrivalNanos);
        }
        len = 0;
        eventStart = 0;
        contentEnd = 0;
        atLineStart = true;
        lastWasCr = false;
    }
}
