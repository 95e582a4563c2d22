package io.aiperf.engine.cli;

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
 * {@code inference} mode until a one-token request to the first URL's endpoint answers 2xx, in {@code models} mode
 * until {@code GET /v1/models} answers 2xx and lists the model; every {@code interval} seconds, at most
 * {@code timeout} seconds. On the probes' client, with the endpoint's headers, API key, TLS and proxy.
 */
final class ModelReadiness {
    private static final int MAX_BODY_BYTES = 4 << 20;

    private ModelReadiness() {
    }

    /** @return null once ready (or when no waiting is asked for), else why the server never became ready */
    static String await(final BenchmarkConfig config, final RunLog log) throws InterruptedException {
        final EndpointConfig endpoint = config.endpoint();
        final WaitForModel wait = endpoint.waitForModel();
        if (!wait.enabled()) {
            return null;
        }
        final boolean models = wait.mode().equals("models");
        final URI uri = models ? UrlJoiner.join(endpoint.urls().get(0), "/v1/models")
                : UrlJoiner.join(endpoint.urls().get(0), endpoint.path());
        final Map<String, String> headers = new LinkedHashMap<>(endpoint.headers());
        RequestFactory.authHeaders(endpoint.apiKey()).forEach(headers::put);
        final byte[] body = models ? null : RequestFactory.bytes(new RequestFactory(endpoint, "readiness")
                .body(config.primaryModel(), "Hi", 1));
        final ProbeClient client = new ProbeClient(endpoint.network());
        final long start = System.nanoTime();
        final long deadline = start + (long) (wait.timeoutSeconds() * 1e9);
        String last = "no answer";
        int attempts = 0;
        while (true) {
            attempts++;
            final double left = Math.max(0.1, (deadline - System.nanoTime()) / 1e9);
            try {
                final ProbeClient.Response r = models ? client.get(uri, headers, left, MAX_BODY_BYTES)
                        : client.post(uri, headers, body, left, MAX_BODY_BYTES);
                if (r.status() / 100 == 2 && (!models || ModelDiscovery.ids(r.text()).contains(config.primaryModel()))) {
                    log.info(String.format(Locale.ROOT, "server ready after %.1f s (%d attempt%s, %s mode)",
                            (System.nanoTime() - start) / 1e9, attempts, attempts == 1 ? "" : "s", wait.mode()));
                    return null;
                }
                last = r.status() / 100 == 2 ? "the model list has no " + config.primaryModel() : "HTTP " + r.status();
            } catch (IOException e) {
                last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            }
            final long pause = (long) (wait.intervalSeconds() * 1e9);
            if (System.nanoTime() + pause - deadline > 0) {
                return String.format(Locale.ROOT, "the server was not ready within --wait-for-model-timeout %.1f s "
                        + "(%d attempts at %s, %s mode; last: %s)", wait.timeoutSeconds(), attempts, uri, wait.mode(),
                        last);
            }
            log.debug("server not ready yet (" + last + "); next attempt in " + wait.intervalSeconds() + " s");
            Thread.sleep(pause / 1_000_000, (int) (pause % 1_000_000));
        }
    }
}
