package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The servers' own metrics, scraped while profiling runs: on by default, off with --no-server-metrics. */
class ServerMetricsEndToEndTest {
    @TempDir
    Path tmp;

    private static JsonNode series(final JsonNode export, final String metric) {
        return export.path("metrics").path(metric).path("series").path(0);
    }

    @Test
    void aRunWritesTheServersMetricsWithSeriesThatMovedDuringProfiling() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 2))) {
            final Path dir = tmp.resolve("with");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "64",
                    "--osl", "8", "--request-count", "20", "--concurrency", "4", "--warmup-request-count", "5",
                    "--num-prefix-prompts", "1", "--prefix-prompt-length", "100", "--tokenizer", "builtin",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode export = Runs.json(dir.resolve("server_metrics_export.json"));
            final String url = mock.url() + "/metrics";
            assertThat(export.path("summary").path("endpoints_successful").path(0).asText()).isEqualTo(url);
            assertThat(export.path("summary").path("endpoint_info").path(url).path("total_fetches").asInt())
                    .isGreaterThanOrEqualTo(2);
            // Counters (named without _total, as upstream names them) moved by exactly the profiling requests: the
            // warmup happened before the window opened.
            final JsonNode success = series(export, "vllm:request_success");
            assertThat(success.path("endpoint_url").asText()).isEqualTo(url);
            assertThat(success.path("stats").path("total").asDouble()).isEqualTo(20.0);
            assertThat(series(export, "vllm:generation_tokens").path("stats").path("total").asDouble())
                    .isEqualTo(160.0);
            assertThat(export.path("metrics").path("vllm:num_requests_running").path("type").asText())
                    .isEqualTo("gauge");
            // Every request after the first shares the pool's one prefix: the mock's prefix cache hits.
            assertThat(export.path("highlights").path("prefix_cache_hit_rate").asDouble()).isBetween(0.1, 1.0);
            assertThat(export.path("highlights").has("requests_running_max")).isTrue();
            final String csv = Files.readString(dir.resolve("server_metrics_export.csv"));
            assertThat(csv).startsWith("# AIPerf Server Metrics Export (CSV)\n")
                    .contains("\r\n127.0.0.1:" + mock.port() + ",counter,vllm:request_success,requests,20.0000,");
        }
    }

    @Test
    void gpuTelemetryStreamsTheDcgmSamplesOfTheProfilingWindow() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(20, 5))) {
            final Path dir = tmp.resolve("gpu");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "16",
                    "--osl", "40", "--request-count", "16", "--concurrency", "4", "--tokenizer", "builtin",
                    "--gpu-telemetry", mock.url() + "/metrics", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final java.util.List<JsonNode> lines = Runs.jsonl(dir.resolve("gpu_telemetry_export.jsonl"));
            assertThat(lines).hasSizeGreaterThanOrEqualTo(2); // the window's first and last scrape at least
            assertThat(lines.get(0).path("url").asText()).isEqualTo(mock.url() + "/metrics");
            assertThat(lines.get(0).path("samples").findValuesAsText("metric")).contains("DCGM_FI_DEV_GPU_UTIL")
                    .allMatch(m -> m.startsWith("DCGM_FI_"));
            final JsonNode json = Runs.json(dir.resolve("gpu_telemetry_export.json"));
            assertThat(json.path("highlights").path("gpu_power_w_max").asDouble()).isGreaterThanOrEqualTo(60.0);
            // the samples are in their own files, so the summary carries no (empty) telemetry_data block
            assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).has("telemetry_data")).isFalse();
            // Off by default.
            final Path off = tmp.resolve("gpu-off");
            assertThat(Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "2", "--tokenizer",
                    "builtin", "--artifact-dir", off.toString()).exitCode()).isZero();
            assertThat(off.resolve("gpu_telemetry_export.jsonl")).doesNotExist();
        }
        final Runs.Result local = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--gpu-telemetry",
                "pynvml", "--artifact-dir", tmp.resolve("none").toString());
        assertThat(local.exitCode()).isEqualTo(2);
        assertThat(local.err()).contains("DCGM exporter");
    }

    @Test
    void noServerMetricsWritesNoneAndAServerWithoutMetricsIsANoteNotAFailure() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path off = tmp.resolve("off");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "3",
                    "--tokenizer", "builtin", "--no-server-metrics", "--artifact-dir", off.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(off.resolve("server_metrics_export.json")).doesNotExist();
            assertThat(mock.controlState().calls("/metrics")).isLessThanOrEqualTo(1); // the identity probe only
            final Path extra = tmp.resolve("extra");
            final Runs.Result missing = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "3",
                    "--tokenizer", "builtin", "--server-metrics", "127.0.0.1:" + mock.port() + "/nothing-here",
                    "--server-metrics-formats", "json", "--artifact-dir", extra.toString());
            assertThat(missing.exitCode()).as(missing.err()).isZero();
            assertThat(missing.err()).contains("server metrics not collected from http://127.0.0.1:" + mock.port()
                    + "/nothing-here (HTTP 404): llama.cpp's server serves /metrics only when started with --metrics");
            final JsonNode summary = Runs.json(extra.resolve("server_metrics_export.json")).path("summary");
            assertThat(summary.path("endpoints_configured")).hasSize(2);
            assertThat(summary.path("endpoints_successful")).hasSize(1);
            assertThat(extra.resolve("server_metrics_export.csv")).doesNotExist();
        }
    }

    /** An endless /metrics is dropped with one warning; the run goes on and is measured as usual. */
    @Test
    void anEndlessMetricsAnswerIsDroppedWithOneWarning() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast());
             java.net.ServerSocket endless = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            final java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
            final Thread t = new Thread(() -> {
                final byte[] chunk = ("4000\r\n" + "x_total 1\n".repeat(1638) + "x 1\n" + "\r\n")
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                while (!endless.isClosed()) {
                    try (java.net.Socket s = endless.accept()) {
                        asked.incrementAndGet();
                        s.getInputStream().read(new byte[8192]);
                        final java.io.OutputStream out = s.getOutputStream();
                        out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
                                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                        for (int i = 0; i < 16 * 1024; i++) { // 256 MiB at most, unless the client hangs up first
                            out.write(chunk);
                        }
                    } catch (java.io.IOException e) {
                        // the client hung up
                    }
                }
            }, "endless-metrics");
            t.setDaemon(true);
            t.start();
            final Path dir = tmp.resolve("endless");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "20",
                    "--concurrency", "2", "--tokenizer", "builtin", "--server-metrics",
                    "http://127.0.0.1:" + endless.getLocalPort() + "/metrics", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.err().split("answered with more than", -1)).as(r.err()).hasSize(2);
            assertThat(asked.get()).isEqualTo(1);
            assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).path("request_count").path("avg").asInt())
                    .isEqualTo(20);
        }
    }
}
