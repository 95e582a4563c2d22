package io.aiperf.engine.profile;

import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.client.RequestFactory;
import io.aiperf.engine.client.UrlJoiner;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.EndpointConfig;
import io.aiperf.engine.config.WaitForModel;
import io.aiperf.engine.log.RunLog;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Waits until the server is ready before any load (upstream's {@code --wait-for-model-*}, src-docs/cli.md): in
 * {@code inference} mode until a one-token request to the first URL's endpoint answers below 500 (a 4xx says the
 * server is up and judged the request), in {@code models} mode until {@code GET /v1/models} lists the model (a
 * server without that route, answering 404, is ready once its base URL answers below 500), in {@code both} mode
 * until both hold. Every {@code interval} seconds, the last try at the deadline, at most {@code timeout} seconds.
 * On the probes' client, with the endpoint's headers, API key, TLS and proxy.
 */
final class ModelReadiness {
    private static final int MAX_BODY_BYTES = 4 << 20;

    private ModelReadiness() {
    }

    /** One probe: null when ready, else what the server answered. */
    private interface Probe {
        String attempt(double seconds) throws IOException;
    }

    /** @return null once ready (or when no waiting is asked for), else why the server never became ready */
    static String await(final BenchmarkConfig config, final RunLog log) throws InterruptedException {
        final EndpointConfig endpoint = config.endpoint();
        final WaitForModel wait = endpoint.waitForModel();
        if (!wait.enabled()) {
            return null;
        }
        final Map<String, String> headers = new LinkedHashMap<>(endpoint.headers());
        RequestFactory.authHeaders(endpoint).forEach(headers::put);
        final ProbeClient client = new ProbeClient(endpoint.network());
        final String base = endpoint.urls().get(0);
        final URI modelsUri = UrlJoiner.join(base, "/v1/models");
        final URI inferenceUri = UrlJoiner.join(base, endpoint.path());
        final byte[] body = RequestFactory.bytes(new RequestFactory(endpoint, "readiness")
                .body(config.primaryModel(), "Hi", 1));
        final Probe models = left -> {
            final ProbeClient.Response r = client.get(modelsUri, headers, left, MAX_BODY_BYTES);
            if (r.status() == 404) {
                final ProbeClient.Response root = client.get(URI.create(base), headers, left, MAX_BODY_BYTES);
                return root.status() < 500 ? null : "/v1/models HTTP 404, base URL HTTP " + root.status();
            }
            return r.status() / 100 != 2 ? "/v1/models HTTP " + r.status()
                    : ModelDiscovery.ids(r.text()).contains(config.primaryModel()) ? null
                    : "the model list has no " + config.primaryModel();
        };
        final Probe inference = left -> {
            final int status = client.post(inferenceUri, headers, body, left, MAX_BODY_BYTES).status();
            return status < 500 ? null : "HTTP " + status;
        };
        final Probe probe = switch (wait.mode()) {
            case "models" -> models;
            case "both" -> left -> {
                final String m = models.attempt(left);
                return m != null ? m : inference.attempt(left);
            };
            default -> inference;
        };
        final long start = System.nanoTime();
        final long deadline = start + (long) (wait.timeoutSeconds() * 1e9);
        String last;
        int attempts = 0;
        while (true) {
            attempts++;
            try {
                last = probe.attempt(Math.max(0.1, (deadline - System.nanoTime()) / 1e9));
            } catch (IOException e) {
                last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            }
            if (last == null) {
                log.info(String.format(Locale.ROOT, "server ready after %.1f s (%d attempt%s, %s mode)",
                        (System.nanoTime() - start) / 1e9, attempts, attempts == 1 ? "" : "s", wait.mode()));
                return null;
            }
            final long left = deadline - System.nanoTime();
            if (left <= 0) {
                return String.format(Locale.ROOT, "the server was not ready within --wait-for-model-timeout %.1f s "
                        + "(%d attempts at %s, %s mode; last: %s)", wait.timeoutSeconds(), attempts, base,
                        wait.mode(), last);
            }
            log.debug("server not ready yet (" + last + "); next attempt in " + wait.intervalSeconds() + " s");
            final long pause = Math.min((long) (wait.intervalSeconds() * 1e9), left); // the last try at the deadline
            Thread.sleep(pause / 1_000_000, (int) (pause % 1_000_000));
        }
    }
}
