package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import io.aiperf.engine.net.TestProxy;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run through a loopback proxy: inference, probes, scrapes and hooks all take it; its password shows nowhere. */
class ProxyEndToEndTest {
    private static final String PASSWORD = "prx-SECRET-2718";

    @TempDir
    Path tmp;

    @Test
    void everyPathGoesThroughTheProxyAndItsCredentialsStayHidden() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast()); TestProxy proxy = new TestProxy()) {
            final String proxyUrl = proxy.url().replace("://", "://perf:" + PASSWORD + "@");
            final Path dir = tmp.resolve("run");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--proxy", proxyUrl,
                    "--streaming", "--request-count", "6", "--isl", "8", "--osl", "3", "--reset-kv-cache",
                    "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(mock.controlState().inferenceRequests()).isEqualTo(6);
            assertThat(proxy.requestLines).anyMatch(l -> l.startsWith("POST " + mock.url() + "/v1/chat/completions "))
                    .anyMatch(l -> l.startsWith("GET " + mock.url() + "/metrics "))
                    .anyMatch(l -> l.startsWith("GET " + mock.url() + "/v1/models "))
                    .anyMatch(l -> l.startsWith("POST " + mock.url() + "/reset_prefix_cache "));
            final JsonNode connection = Runs.json(dir.resolve("profile_export_aiperf.json")).path("environment")
                    .path("connection");
            assertThat(connection.path("proxy").asText()).isEqualTo(proxy.url());
            assertThat(connection.path("protocol").asText()).isEqualTo("HTTP/1.1");
            assertThat(Runs.json(dir.resolve("server_metrics_export.json")).path("summary")
                    .findPath("total_fetches").asInt()).isGreaterThanOrEqualTo(2);
            final String everything = Runs.allText(dir) + r.out() + r.err();
            assertThat(everything).doesNotContain(PASSWORD);
            assertThat(everything).doesNotContain(java.util.Base64.getEncoder().encodeToString(
                    ("perf:" + PASSWORD).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
    }
}
