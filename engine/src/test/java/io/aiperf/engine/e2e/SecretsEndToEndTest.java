package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every feature at once with a known API key, URL password and header secrets, against a server that echoes the
 * key back in an error body: not one of them may appear in any written file or on the console.
 */
class SecretsEndToEndTest {
    private static final String KEY = "sk-KEY-3141592653";
    private static final String PASSWORD = "pw-SECRET-2718";
    private static final String HEADER_1 = "hdr-SECRET-1618";
    private static final String HEADER_2 = "hdr-SECRET-1414";
    private static final List<String> SECRETS = List.of(KEY, PASSWORD, HEADER_1, HEADER_2);

    @TempDir
    Path tmp;

    @Test
    void aKeyMadeOfDigitsThatMasksANumberStillEndsTheRunWithItsOutcome() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("digits");
            // the key 1234 masks the prompt length 1234 in the summary's bytes: they are no longer JSON
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--api-key", "1234",
                    "--tokenizer", "builtin", "--request-count", "3", "--isl", "1234", "--isl-stddev", "0",
                    "--osl", "2", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(Files.readString(dir.resolve("cell_outcome.json"))).contains("\"completed\"");
            assertThat(Runs.allText(dir) + r.out() + r.err()).doesNotContain("1234");
        }
    }

    @Test
    void noSecretReachesAFileOrTheConsole() throws Exception {
        final StringBuilder console = new StringBuilder();
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withApiKey(KEY)
                .withFaults("/v1/chat/completions=echo-auth:1"))) {
            final String url = mock.url().replace("://", "://perf:" + PASSWORD + "@");
            final Path rules = tmp.resolve("rules.yaml");
            Files.writeString(rules, "rules:\n  - {metric: request_latency, stat: avg, max: 100000}\n");
            final Path dir = tmp.resolve("runs");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", url, "--api-key=" + KEY,
                    "--header=X-Api-Key:" + HEADER_1, "-Hapi-key:" + HEADER_2, "--streaming",
                    "--concurrency", "1,2", "--num-profile-runs", "2", "--request-count", "6", "--isl", "8",
                    "--osl", "2", "--reset-kv-cache", "--server-profiler", "--gate", rules.toString(),
                    "--artifact-dir", dir.toString(), "-v"); // -v: each cell's table, its errors with the echo
            console.append(r.out()).append(r.err());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(mock.controlState().authorizedAdminCalls()).isPositive(); // the key was really sent
            // The echoed key reached a record, redacted.
            assertThat(Runs.allText(dir)).contains("Incorrect API key provided: Bearer <redacted>");
            assertThat(r.out()).contains("<redacted>");

            final Path yaml = tmp.resolve("bench.yaml");
            Files.writeString(yaml, """
                    benchmark:
                      model: m
                      endpoint:
                        url: %s
                        api_key: ${AIPERF_SECRET_TEST_KEY:%s}
                        headers: {X-Api-Key: %s, X-Trace: plain}
                    """.formatted(url, KEY, HEADER_1));
            final Runs.Result expand = Runs.aiperf("config", "expand", "-f", yaml.toString());
            assertThat(expand.exitCode()).isZero();
            assertThat(expand.out()).contains("plain").contains("<redacted>");
            console.append(expand.out()).append(expand.err());
        }
        final String files = Runs.allText(tmp.resolve("runs")); // all the engine wrote (bench.yaml is the user's)
        for (final String secret : SECRETS) {
            assertThat(files).as("files").doesNotContain(secret);
            assertThat(console.toString()).as("console").doesNotContain(secret);
        }
        assertThat(files + console).doesNotContain("perf:" + PASSWORD.substring(0, 3));
    }

    /**
     * Secrets found by their names' pattern, not by a list: a cookie, *-Token headers, API keys in the URL's query,
     * a header filled from an environment variable; and a key holding a quote and a backslash, echoed by the server
     * in JSON. Each value ends in a tail no other text has, which survives any escaping.
     */
    @Test
    void secretsFoundByPatternAndEscapedFormsNeverReachAFileOrTheConsole() throws Exception {
        final String key = "sk-\"q\\b-KEYTAIL9";
        final List<String> tails = List.of("KEYTAIL9", "COOKIETAIL7", "XAUTHTAIL5", "OTHERTAIL3", "APIKEYTAIL1",
                "QKEYTAIL2");
        final StringBuilder console = new StringBuilder();
        final Path dir = tmp.resolve("pattern");
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withApiKey(key)
                .withFaults("/v1/chat/completions=echo-auth:1"))) {
            final String url = mock.url() + "?api_key=APIKEYTAIL1&key=QKEYTAIL2&model=plain";
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", url, "--api-key", key,
                    "-H", "Cookie: session=COOKIETAIL7", "-H", "X-Auth-Token: XAUTHTAIL5",
                    "--header=X-Other-Token:OTHERTAIL3", "--request-count", "4", "--isl", "8", "--osl", "2",
                    "--export-level", "raw", "--artifact-dir", dir.toString());
            console.append(r.out()).append(r.err());
            assertThat(r.exitCode()).as(r.err()).isIn(0, 1);
            assertThat(mock.controlState().inferenceRequests()).isPositive();
            final Path config = tmp.resolve("pattern.yaml");
            Files.writeString(config, """
                    benchmark:
                      model: m
                      endpoint:
                        url: "%s"
                        api_key: '%s'
                        headers: {Cookie: "session=COOKIETAIL7", X-Auth-Token: XAUTHTAIL5, X-Trace: plain}
                    """.formatted(url, key));
            final Runs.Result expand = Runs.aiperf("config", "expand", "-f", config.toString());
            console.append(expand.out()).append(expand.err());
            assertThat(expand.exitCode()).as(expand.err()).isZero();
            assertThat(expand.out()).contains("<redacted>").contains("model=plain");
        }
        final String files = Runs.allText(dir);
        assertThat(files).contains("Incorrect API key provided"); // the server did echo the key
        for (final String tail : tails) {
            assertThat(files).as("files: " + tail).doesNotContain(tail);
            assertThat(console.toString()).as("console: " + tail).doesNotContain(tail);
        }
        // A header filled from the environment (${VAR} in YAML) is a secret whatever its name.
        final Path yaml = tmp.resolve("env.yaml");
        Files.writeString(yaml, """
                benchmark:
                  model: m
                  endpoint:
                    url: http://127.0.0.1:9
                    headers: {X-Tenant: "${AIPERF_TEST_TENANT}", X-Trace: plain}
                """);
        final ProcessBuilder pb = Runs.engineProcess(List.of("config", "expand", "-f", yaml.toString()),
                tmp.resolve("expand.log"));
        pb.environment().put("AIPERF_TEST_TENANT", "tenant-ENVTAIL8");
        final Process p = pb.start();
        assertThat(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        final String out = Files.readString(tmp.resolve("expand.log"));
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("plain").doesNotContain("ENVTAIL8");
    }

    /**
     * The URLs besides the inference one, given in YAML (which the console mask of the command line never sees):
     * metrics and DCGM exporters and an OTLP collector with user-info and a token, hook paths with a token. None may
     * reach the console, logs/aiperf.log, the exports or the sweep's files.
     */
    @Test
    void secretsInTelemetryCollectorAndHookUrlsNeverReachAFileOrTheConsole() throws Exception {
        final List<String> tails = List.of("MPASSTAIL1", "MTOKTAIL2", "GPASSTAIL3", "GTOKTAIL4", "OPASSTAIL5",
                "OTOKTAIL6", "RESETTAIL7", "STARTTAIL8");
        final Path dir = tmp.resolve("telemetry");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final String hostPort = mock.url().replaceFirst("^http://", "").replaceFirst("/.*$", "");
            final Path yaml = tmp.resolve("telemetry.yaml");
            Files.writeString(yaml, """
                    benchmark:
                      model: m
                      endpoint:
                        url: %1$s
                        reset_kv_cache: {path: "/reset_prefix_cache?token=RESETTAIL7"}
                        server_profiler: {start_path: "/start_profile?access_token=STARTTAIL8"}
                        server_metrics: {urls: ["http://m:MPASSTAIL1@%2$s/metrics?token=MTOKTAIL2"]}
                        gpu_telemetry: ["http://g:GPASSTAIL3@%2$s/metrics?token=GTOKTAIL4"]
                      artifacts:
                        dir: %3$s
                        otel: {url: "http://o:OPASSTAIL5@%2$s/v1/metrics?token=OTOKTAIL6"}
                    """.formatted(mock.url(), hostPort, dir));
            final Runs.Result r = Runs.aiperf("profile", "-f", yaml.toString(), "--concurrency", "1,2",
                    "--request-count", "4", "--isl", "8", "--osl", "2");
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(mock.controlState().inferenceRequests()).isPositive();
            final String files = Runs.allText(dir);
            assertThat(files).contains("gpu_telemetry").contains("<redacted>"); // the URLs were written, redacted
            for (final String tail : tails) {
                assertThat(files).as("files: " + tail).doesNotContain(tail);
                assertThat(r.out() + r.err()).as("console: " + tail).doesNotContain(tail);
            }
        }
    }

    /** compare's second endpoint has its own secrets: none reaches either side's files or the console. */
    @Test
    void compareHidesTheSecretsOfItsSecondEndpointToo() throws Exception {
        final Path dir = tmp.resolve("ab");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final String b = mock.url().replace("://", "://perf:BPASSTAIL1@") + "?api_key=BKEYTAIL2";
            final Runs.Result r = Runs.aiperf("compare", "-m", "m", "--a", mock.url(), "--b", b, "--pairs", "1",
                    "--request-count", "2", "--isl", "8", "--osl", "2", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final String files = Runs.allText(dir);
            assertThat(files).contains("api_key=<redacted>"); // B's URL was written, redacted
            for (final String tail : List.of("BPASSTAIL1", "BKEYTAIL2")) {
                assertThat(files).as("files: " + tail).doesNotContain(tail);
                assertThat(r.out() + r.err()).as("console: " + tail).doesNotContain(tail);
            }
        }
    }

    @Test
    void serverTextCannotDriveTheTerminal() throws Exception {
        try (HostileServer server = new HostileServer("HTTP/1.1 500 \u001b]0;pwned\u0007\u001b[2J\r\n"
                + "Content-Length: 12\r\n\r\n\u001b[31mred\u001b[0m!", 0)) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", server.url(), "--request-count", "2",
                    "--artifact-dir", tmp.resolve("esc").toString());
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.out() + r.err()).doesNotContain("\u001b").doesNotContain("\u0007").contains("\\x1B");
        }
    }
}
