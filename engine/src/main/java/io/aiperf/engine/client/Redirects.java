package io.aiperf.engine.client;

import java.net.URI;

/**
 * Which redirects the lean transport follows (src-docs/failure-modes.md, redirects): 307 and 308, which keep the
 * method and the body, up to {@link #MAX} per request, to a target the transport carries. A 301, 302 or 303 would
 * turn the POST into a GET, which is no inference request: it stays an error record that names its Location.
 */
final class Redirects {
    static final int MAX = 5;

    private Redirects() {
    }

    /** The target to send {@code exchange} to next, or null when this answer is not followed. */
    static URI followed(final Http1Exchange exchange, final int status, final String location) {
        if ((status != 307 && status != 308) || exchange.redirects >= MAX) {
            return null;
        }
        final URI target;
        try {
            target = exchange.request.uri().resolve(location.trim());
        } catch (IllegalArgumentException e) {
            return null;
        }
        return Http1Transport.carries(target) ? target : null;
    }
}
