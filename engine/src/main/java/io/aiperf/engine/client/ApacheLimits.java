package io.aiperf.engine.client;

import org.apache.hc.core5.http.config.Http1Config;

/**
 * The response-head bound of Apache HttpClient's connections (the {@code apache} transport and the control hooks).
 * Apache bounds a head by its longest line and its number of fields, not by bytes, and bounds neither by default: a
 * server sending header lines without end filled the heap. Here no line may be longer than the head limit and a
 * head has at most {@value #MAX_FIELDS} fields.
 */
public final class ApacheLimits {
    static final int MAX_FIELDS = 256;

    private ApacheLimits() {
    }

    /** HTTP/1.1 settings whose heads stay within {@code maxHeadBytes} per line and {@value #MAX_FIELDS} fields. */
    public static Http1Config http1(final int maxHeadBytes) {
        return Http1Config.custom().setMaxLineLength(maxHeadBytes).setMaxHeaderCount(MAX_FIELDS).build();
    }
}
