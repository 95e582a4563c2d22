package io.aiperf.engine.client;

import java.net.URI;
import org.apache.hc.core5.http.Header;

/**
 * One ready-to-send inference request: target, headers (without per-request ids) and the exact body.
 *
 * @param sessionHeader the header that carries the session id ({@code X-Correlation-ID} unless renamed)
 * @param parser how the endpoint's answers are read
 */
public record PreparedRequest(URI uri, Header[] headers, byte[] body, boolean streaming, String sessionHeader,
                              ResponseParser parser) {
    public static final String DEFAULT_SESSION_HEADER = "X-Correlation-ID";

    /** An OpenAI-shaped request with the default session header. */
    public PreparedRequest(final URI uri, final Header[] headers, final byte[] body, final boolean streaming) {
        this(uri, headers, body, streaming, DEFAULT_SESSION_HEADER, ResponseParser.OPENAI);
    }
}
