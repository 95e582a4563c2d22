package io.aiperf.engine.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.client.UrlJoiner;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.EndpointConfig;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The model to benchmark when none is named: the one model the server lists at {@code GET /v1/models} (as vLLM's
 * {@code bench serve} does). Anything else (no answer, no model, several) is a configuration error that says what
 * the server answered, before any load. One short request, with the endpoint's headers and API key.
 */
final class ModelDiscovery {
    static final String FIELD = "-m/--model (benchmark.models)";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private ModelDiscovery() {
    }

    static String onlyModel(final EndpointConfig endpoint) {
        final String base = endpoint.urls().get(0);
        final java.net.URI uri = UrlJoiner.join(base, "/v1/models");
        final HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET();
        endpoint.headers().forEach((name, value) -> {
            try {
                request.header(name, value);
            } catch (IllegalArgumentException e) {
                // a header the JDK client sets itself (Host, Connection, ...): not needed to list the models
            }
        });
        RequestFactory.authHeaders(endpoint.apiKey()).forEach(request::header);
        final HttpResponse<String> answer;
        try {
            answer = HttpClient.newBuilder().connectTimeout(TIMEOUT).build().send(request.build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new ConfigException(FIELD, "no model named, and " + uri + " could not be asked which it serves ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                    + "); name it with -m");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConfigException(FIELD, "no model named, and asking " + uri + " was interrupted");
        }
        if (answer.statusCode() / 100 != 2) {
            throw new ConfigException(FIELD, "no model named, and " + uri + " answered HTTP " + answer.statusCode()
                    + "; name it with -m");
        }
        final List<String> ids = ids(answer.body());
        if (ids.size() != 1) {
            throw new ConfigException(FIELD, "no model named, and " + uri + " serves " + (ids.isEmpty() ? "none"
                    : ids.size() + " (" + String.join(", ", ids.subList(0, Math.min(5, ids.size())))
                    + (ids.size() > 5 ? ", ..." : "") + ")") + "; name the one to benchmark with -m");
        }
        return ids.get(0);
    }

    /** The {@code data[].id} of an OpenAI model list; empty when the body is not one. */
    static List<String> ids(final String body) {
        final List<String> out = new ArrayList<>();
        try {
            for (final JsonNode m : JSON.readTree(body).path("data")) {
                if (m.path("id").isTextual()) {
                    out.add(m.path("id").asText());
                }
            }
        } catch (IOException e) {
            // not a model list
        }
        return out;
    }
}
