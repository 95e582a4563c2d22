package io.aiperf.engine.hooks;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Control-plane targets (the control-hooks contract in src-docs/control-hooks.md): {@code scheme://host:port} of each endpoint URL, de-duplicated in
 * order of first appearance, and the redaction used in every message.
 */
public final class Origins {
    private Origins() {
    }

    public static List<String> of(final List<String> urls) {
        final Set<String> seen = new LinkedHashSet<>();
        for (final String u : urls) {
            seen.add(origin(u));
        }
        return new ArrayList<>(seen);
    }

    /** {@code scheme://host:port}; userinfo is dropped (the HTTP client refuses it in request URIs). */
    static String origin(final String url) {
        final URI uri = URI.create(url.contains("://") ? url : "http://" + url);
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "");
    }

    /** Origin without a trailing slash, plus the hook path. */
    public static String join(final String origin, final String path) {
        return (origin.endsWith("/") ? origin.substring(0, origin.length() - 1) : origin) + path;
    }

    /** The URL without userinfo, safe for logs and errors. */
    public static String redact(final String url) {
        return url.replaceAll("://[^/@]*@", "://");
    }
}
