package io.aiperf.engine.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.client.UrlJoiner;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.ConfigBinder;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.EndpointConfig;
import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.log.RunLog;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The model to benchmark when none is named: the one model the server lists at {@code GET /v1/models} (as vLLM's
 * {@code bench serve} does). Anything else (no answer, no model, several) is a configuration error that says what
 * the server answered, before any load. One short request, with the endpoint's headers (as given), API key, TLS and
 * proxy settings, on the probes' client.
 */
final class ModelDiscovery {
    static final String FIELD = "-m/--model (benchmark.models)";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double TIMEOUT_SECONDS = 5;
    /** A model list is small; a server that sends more is not answering the question. */
    private static final int MAX_BODY_BYTES = 4 << 20;

    private ModelDiscovery() {
    }

    /**
     * The config; when it names no model, the one model the server serves, said on the console. The endpoint to
     * ask comes from a config loaded with a placeholder name, so the YAML's URL, headers and API key are the ones
     * used.
     */
    static BenchmarkConfig configNamingTheModel(final ConfigSource configs, final RunLog.Level level,
                                                final PrintStream err) {
        try {
            return configs.load();
        } catch (ConfigException e) {
            if (configs.namesModel() || !ConfigBinder.NO_MODEL.equals(e.reason())) {
                throw e;
            }
        }
        configs.useModel("model-to-be-asked");
        final String model = onlyModel(configs.load().endpoint());
        configs.useModel(model);
        if (level.compareTo(RunLog.Level.INFO) <= 0) {
            err.println("model " + model + ": the one the server lists at /v1/models");
        }
        return configs.load();
    }

    static String onlyModel(final EndpointConfig endpoint) {
        final String base = endpoint.urls().get(0);
        final java.net.URI uri = UrlJoiner.join(base, "/v1/models");
        final Map<String, String> headers = new LinkedHashMap<>(endpoint.headers());
        RequestFactory.authHeaders(endpoint).forEach(headers::put);
        final ProbeClient.Response answer;
        try {
            answer = new ProbeClient(endpoint.network()).get(uri, headers, TIMEOUT_SECONDS, MAX_BODY_BYTES);
        } catch (IOException e) {
            throw new ConfigException(FIELD, "no model named, and " + uri + " could not be asked which it serves ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                    + "); name it with -m");
        }
        if (answer.status() / 100 != 2) {
            throw new ConfigException(FIELD, "no model named, and " + uri + " answered HTTP " + answer.status()
                    + "; name it with -m");
        }
        final List<String> ids = ids(answer.text());
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
