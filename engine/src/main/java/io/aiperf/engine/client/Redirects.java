package io.aiperf.engine.client;

import java.net.URI;

/**
 * Which redirects the lean transport follows (src-docs/failure-modes.md, redirects): 307 and 308, which keep the
 * method and the body, up to {@link #MAX} per request, to a target the transport carries. A 301, 302 or 303 would
 * turn the POST into a GET, which is no inference request: it stays an error record that names its Location. No
 * redirect takes a request from https to http, or its credentials to another origin.
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
        return Http1Transport.carries(target) && refusal(exchange.request, target) == null ? target : null;
    }

    /**
     * Why a redirect to {@code target} is never followed whatever its status, or null: from https to plain http
     * (the request and its answer would cross the network in clear), or to another origin while the request carries
     * credentials (a header the redactor treats as secret, or a user and password in its URL), which a client must
     * not hand to a server the user never named.
     */
    static String refusal(final PreparedRequest request, final URI target) {
        final URI from = request.uri();
        if ("https".equalsIgnoreCase(from.getScheme()) && !"https".equalsIgnoreCase(target.getScheme())) {
            return "a redirect from https to plain http is never followed";
        }
        if (!ReuseGuard.key(from).equals(ReuseGuard.key(target)) && carriesCredentials(request)) {
            return "credentials (API key, Authorization and other secret headers) are never sent to another origin; "
                    + "point --url at the Location";
        }
        return null;
    }

    private static boolean carriesCredentials(final PreparedRequest request) {
        if (request.uri().getRawUserInfo() != null) {
            return true;
        }
        for (final org.apache.hc.core5.http.Header h : request.headers()) {
            if (io.aiperf.engine.redact.SensitiveNames.header(h.getName())) {
                return true;
            }
        }
        return false;
    }
}
