package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** https targets: trusted through --ssl-ca-file for inference and control calls, refused otherwise, or insecure. */
class TlsEndToEndTest {
    @TempDir
    Path tmp;
    private Path last;

    private Runs.Result profile(final String url, final String... tlsFlags) {
        last = tmp.resolve("run-" + tlsFlags.length + "-" + System.nanoTime());
        final java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("profile", "-m", "m", "-u", url,
                "--streaming", "--request-count", "4", "--isl", "8", "--osl", "3", "--artifact-dir",
                last.toString()));
        args.addAll(java.util.List.of(tlsFlags));
        return Runs.aiperf(args.toArray(new String[0]));
    }

    @Test
    void aTrustedCaServesInferenceAndControlCalls() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast());
             TlsProxy tls = new TlsProxy(tmp, mock.port())) {
            final Runs.Result ok = profile(tls.url(), "--ssl-ca-file", tls.caFile().toString(), "--reset-kv-cache",
                    "--server-profiler");
            assertThat(ok.exitCode()).as(ok.err()).isZero();
            assertThat(mock.controlState().inferenceRequests()).isEqualTo(4);
            assertThat(mock.controlState().resetCount()).isEqualTo(1);
            assertThat(ok.out()).contains("reset_kv_cache " + tls.url() + "/reset_prefix_cache: ok");
            // https on the lean transport, as HTTP/1.1, recorded; the scraper trusted the same CA file.
            final com.fasterxml.jackson.databind.JsonNode env = Runs.json(last.resolve("profile_export_aiperf.json"))
                    .path("environment");
            assertThat(env.path("connection").path("protocol").asText()).isEqualTo("HTTP/1.1");
            assertThat(env.path("connection").path("tls_version").asText()).startsWith("TLSv1.");
            assertThat(env.path("fingerprint").path("protocol").asText()).isEqualTo("HTTP/1.1");
            final com.fasterxml.jackson.databind.JsonNode scraped = Runs.json(last.resolve("server_metrics_export.json"));
            assertThat(scraped.path("summary").findPath("total_fetches").asInt()).isGreaterThanOrEqualTo(2);
            assertThat(Runs.json(last.resolve("profile_export_aiperf.json")).path("environment").path("server")
                    .path("models").toString()).contains("mock-model");

            final Runs.Result untrusted = profile(tls.url());
            assertThat(untrusted.exitCode()).isEqualTo(1);
            assertThat(untrusted.err()).contains("no valid request").contains("SSLHandshakeException");

            final Runs.Result insecure = profile(tls.url(), "--ssl-insecure");
            assertThat(insecure.exitCode()).isZero();
            assertThat(insecure.err()).contains("warning: TLS certificate verification is off");
            assertThat(Runs.json(last.resolve("server_metrics_export.json")).path("summary")
                    .findPath("total_fetches").asInt()).as("the scraper under --ssl-insecure").isGreaterThanOrEqualTo(2);
        }
        final Runs.Result missing = profile("https://127.0.0.1:1", "--ssl-ca-file", tmp.resolve("nope.pem").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("--ssl-ca-file").contains("cannot read CA certificates");
    }

    /** A server that offers h2 and http/1.1: HTTP/1.1 unless --http2, and the export says which. */
    @Test
    void theProtocolIsHttp11UnlessHttp2IsAskedForAndTheExportSaysWhich() throws Exception {
        final io.aiperf.engine.net.TestTls certs = io.aiperf.engine.net.TestTls.create(tmp);
        try (io.aiperf.engine.net.TlsTestServer server = new io.aiperf.engine.net.TlsTestServer(
                certs.serverContext(false), false, 0)) {
            final Runs.Result h1 = profile(server.url(), "--ssl-ca-file", certs.serverCertPem.toString(),
                    "--no-server-metrics");
            assertThat(h1.exitCode()).as(h1.err()).isZero();
            final com.fasterxml.jackson.databind.JsonNode c1 = Runs.json(last.resolve("profile_export_aiperf.json"))
                    .path("environment").path("connection");
            assertThat(c1.path("protocol").asText()).isEqualTo("HTTP/1.1");
            assertThat(c1.path("alpn").asText()).isEqualTo("http/1.1");
            final Runs.Result h2 = profile(server.url(), "--ssl-ca-file", certs.serverCertPem.toString(),
                    "--no-server-metrics", "--http2");
            assertThat(h2.exitCode()).as(h2.err()).isZero();
            final com.fasterxml.jackson.databind.JsonNode c2 = Runs.json(last.resolve("profile_export_aiperf.json"))
                    .path("environment").path("connection");
            assertThat(c2.path("protocol").asText()).isEqualTo("HTTP/2");
            assertThat(c2.path("alpn").asText()).isEqualTo("h2");
            assertThat(server.seen).extracting(io.aiperf.engine.net.TlsTestServer.Seen::protocol)
                    .contains("HTTP/1.1", "HTTP/2.0");
        }
    }
}
