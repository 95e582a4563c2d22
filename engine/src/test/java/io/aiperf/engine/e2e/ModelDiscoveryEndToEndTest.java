package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Without -m, the run benchmarks the one model the server lists, and says why it cannot otherwise. */
class ModelDiscoveryEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void theOneModelTheServerListsIsBenchmarked() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("found");
            final Runs.Result r = Runs.aiperf("profile", "-u", mock.url(), "--request-count", "3", "--osl", "2",
                    "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.err()).contains("model mock-model: the one the server lists at /v1/models");
            assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).path("input_config").toString())
                    .contains("mock-model");
        }
    }

    @Test
    void aServerWithSeveralModelsIsAClearUsageErrorBeforeAnyLoad() throws Exception {
        final List<String> paths = new CopyOnWriteArrayList<>();
        final HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            paths.add(exchange.getRequestURI().getPath());
            final byte[] body = "{\"data\": [{\"id\": \"llama\"}, {\"id\": \"qwen\"}]}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            final Path dir = tmp.resolve("several");
            final Runs.Result r = Runs.aiperf("profile", "-u", "http://127.0.0.1:" + server.getAddress().getPort(),
                    "--request-count", "3", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("-m/--model").contains("serves 2 (llama, qwen)")
                    .contains("name the one to benchmark with -m");
            assertThat(paths).containsOnly("/v1/models");
            assertThat(dir).doesNotExist();
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aServerThatCannotBeAskedIsAClearUsageError() throws Exception {
        final int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        final Runs.Result r = Runs.aiperf("profile", "-u", "http://127.0.0.1:" + port, "--request-count", "3",
                "--artifact-dir", tmp.resolve("none").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("-m/--model").contains("could not be asked which it serves");
    }
}
