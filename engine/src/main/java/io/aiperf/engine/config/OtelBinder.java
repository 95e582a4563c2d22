package io.aiperf.engine.config;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Binds {@code artifacts.otel}: the collector URL, the streams and the resource attributes. */
final class OtelBinder {
    static final List<String> OTEL_KEYS = List.of("url", "stream", "resource_attributes", "gen_ai_provider");

    private OtelBinder() {
    }

    static ArtifactsConfig.Otel bind(final Section s) {
        s.allowOnly(OTEL_KEYS);
        final String url = s.string("url", null);
        if (url == null || url.isBlank()) {
            throw s.error("url", "the OTLP/HTTP collector's URL is required (--otel-url)");
        }
        final URI uri;
        try {
            uri = URI.create(url.contains("://") ? url : "http://" + url);
        } catch (IllegalArgumentException e) {
            throw s.error("url", "not a URL: " + e.getMessage());
        }
        if (uri.getHost() == null || !List.of("http", "https").contains(uri.getScheme())) {
            throw s.error("url", "expected http://host:port[/v1/metrics], got '" + url + "'");
        }
        boolean metrics = false;
        boolean timing = false;
        final List<String> streams = s.has("stream") ? s.stringList("stream") : List.of("default");
        for (final String stream : streams) {
            switch (stream.toLowerCase(Locale.ROOT)) {
                case "metrics" -> metrics = true;
                case "timing" -> timing = true;
                case "default" -> {
                    metrics = true;
                    timing = true;
                }
                default -> throw s.error("stream", "expected metrics, timing or default, got '" + stream + "'");
            }
        }
        final Map<String, String> attributes = new LinkedHashMap<>();
        if (s.has("resource_attributes")) {
            for (final String pair : s.stringList("resource_attributes")) {
                final int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw s.error("resource_attributes", "expected key=value, got '" + pair + "'");
                }
                attributes.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        return new ArtifactsConfig.Otel(uri.toString(), metrics, timing, attributes,
                s.string("gen_ai_provider", null));
    }
}
