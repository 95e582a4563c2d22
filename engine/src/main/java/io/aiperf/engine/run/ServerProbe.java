package io.aiperf.engine.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.client.InferenceClient;
import io.aiperf.engine.client.RequestHeaders;
import io.aiperf.engine.client.UrlJoiner;
import io.aiperf.engine.record.Environment;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks the server who it is before a cell's load (src-docs/validity.md): {@code GET /v1/models}, {@code /version} and
 * the build-info series of {@code /metrics}, each bounded by a short timeout and asked at once. A server that answers
 * none of them is simply unknown; the probe never fails a run.
 */
final class ServerProbe {
    private static final double TIMEOUT_SECONDS = 1.5;
    /** The largest answer read from {@code /v1/models} and {@code /version}; a larger one is not read at all. */
    static final int MAX_BYTES = 1024 * 1024;
    /** {@code /metrics} pages are larger; the scraper's own limit. */
    static final int MAX_METRICS_BYTES = io.aiperf.engine.telemetry.ServerMetricsCollector.MAX_BYTES;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern GPU_LABEL = Pattern.compile("\\b(?:gpu|gpu_name|gpu_type|device_name)=\"([^\"]+)\"");

    private ServerProbe() {
    }

    static Environment.ServerIdentity identify(final InferenceClient client, final String url, final String origin,
                                               final RequestHeaders headers) {
        final CompletableFuture<InferenceClient.Answer> models = CompletableFuture.supplyAsync(
                () -> client.get(UrlJoiner.join(url, "/v1/models"), headers, TIMEOUT_SECONDS, MAX_BYTES));
        final CompletableFuture<InferenceClient.Answer> version = CompletableFuture.supplyAsync(
                () -> client.get(URI.create(origin + "/version"), headers, TIMEOUT_SECONDS, MAX_BYTES));
        final CompletableFuture<InferenceClient.Answer> metrics = CompletableFuture.supplyAsync(
                () -> client.get(URI.create(origin + "/metrics"), headers, TIMEOUT_SECONDS, MAX_METRICS_BYTES));
        final InferenceClient.Answer m = models.join();
        final InferenceClient.Answer v = version.join();
        final InferenceClient.Answer x = metrics.join();
        final List<String> ids = ok(m) ? modelIds(m.body()) : List.of();
        final String server = m != null ? m.serverHeader() : v != null ? v.serverHeader() : null;
        final String versionText = ok(v) ? abbreviate(v.body().strip(), 200) : null;
        final List<String> buildInfo = ok(x) ? buildInfo(x.body()) : List.of();
        String gpu = null;
        for (final String line : buildInfo) {
            final Matcher g = GPU_LABEL.matcher(line);
            if (g.find()) {
                gpu = g.group(1);
                break;
            }
        }
        return new Environment.ServerIdentity(ids, server, versionText, buildInfo, gpu);
    }

    private static boolean ok(final InferenceClient.Answer a) {
        return a != null && a.status() >= 200 && a.status() < 300;
    }

    /** {@code id} (with {@code owned_by} when given) of each listed model. */
    static List<String> modelIds(final String body) {
        final List<String> out = new ArrayList<>();
        try {
            for (final JsonNode model : JSON.readTree(body).path("data")) {
                final String id = model.path("id").asText(null);
                if (id != null) {
                    final String owner = model.path("owned_by").asText(null);
                    out.add(owner == null ? id : id + " (" + owner + ")");
                }
            }
        } catch (java.io.IOException e) {
            // not a model list: the server is unknown in this respect
        }
        return out;
    }

    /** The {@code *build_info*} samples of a Prometheus text exposition, at most five. */
    static List<String> buildInfo(final String metrics) {
        final List<String> out = new ArrayList<>();
        for (final String line : metrics.split("\n")) {
            if (!line.startsWith("#") && line.contains("build_info") && out.size() < 5) {
                out.add(abbreviate(line.strip(), 300));
            }
        }
        return out;
    }

    private static String abbreviate(final String s, final int max) {
        return s.length() <= max ? s : s.substring(0, max) + "...";
    }
}
