package io.aiperf.engine.client;

import org.apache.hc.core5.http.config.Http1Config;

/**
 * The response-head bound of Apache HttpClient's connections (the {@code apache} transport and the control hooks).
 * Apache bounds a head by its longest line and its number of fields, not by bytes, and bounds neither by default: a
 * server sending header lines without end filled the heap. So the two are chosen so that their product stays within
 * the head limit: at most {@value #MAX_FIELDS} fields (real servers send a few dozen), each line at most a
 * {@value #MAX_FIELDS}th of the limit, but never less than {@value #MIN_LINE} bytes, so that a small limit still
 * reads real heads. A head then holds at most the limit, or {@value #MAX_FIELDS} x {@value #MIN_LINE} bytes when the
 * limit is below that.
 */
public final class ApacheLimits {
    static final int MAX_FIELDS = 64;
    static final int MIN_LINE = 8 * 1024;

    private ApacheLimits() {
    }

    /** HTTP/1.1 settings whose heads stay within {@code maxHeadBytes} (or 512 KiB when it is smaller). */
    public static Http1Config http1(final int maxHeadBytes) {
        return Http1Config.custom().setMaxLineLength(maxLineLength(maxHeadBytes)).setMaxHeaderCount(MAX_FIELDS)
                .build();
    }

    /** The longest head line read. */
    static int maxLineLength(final int maxHeadBytes) {
        return Math.max(maxHeadBytes / MAX_FIELDS, Math.min(maxHeadBytes, MIN_LINE));
    }
}
