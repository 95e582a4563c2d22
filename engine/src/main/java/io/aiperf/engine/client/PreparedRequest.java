package io.aiperf.engine.client;

import java.net.URI;
import org.apache.hc.core5.http.Header;

/**
 * One ready-to-send inference request: target, headers (without per-request ids) and the exact body.
 *
 * @param sessionHeader the header that carries the session id ({@code X-Correlation-ID} unless renamed)
 * @param parser how the endpoint's answers are read
 * @param lastTurn the last turn of its conversation (under sticky-user-sessions its connection is closed after it)
 */
public record PreparedRequest(URI uri, Header[] headers, byte[] body, boolean streaming, String sessionHeader,
                              ResponseParser parser, boolean lastTurn) {
    public static final String DEFAULT_SESSION_HEADER = "X-Correlation-ID";

    /** The only turn of its conversation. */
    public PreparedRequest(final URI uri, final Header[] headers, final byte[] body, final boolean streaming,
                           final String sessionHeader, final ResponseParser parser) {
        this(uri, headers, body, streaming, sessionHeader, parser, true);
    }

    /** A turn of a conversation with the cell's common headers. */
    public PreparedRequest(final URI uri, final RequestHeaders headers, final byte[] body, final boolean streaming,
                           final String sessionHeader, final ResponseParser parser, final boolean lastTurn) {
        this(uri, headers.wire(), body, streaming, sessionHeader, parser, lastTurn);
    }

    /** The same request sent to {@code target} (a redirect's). */
    PreparedRequest to(final URI target) {
        return new PreparedRequest(target, headers, body, streaming, sessionHeader, parser, lastTurn);
    }

    /** An OpenAI-shaped request with the default session header. */
    public PreparedRequest(final URI uri, final Header[] headers, final byte[] body, final boolean streaming) {
        this(uri, headers, body, streaming, DEFAULT_SESSION_HEADER, ResponseParser.OPENAI);
    }
}
