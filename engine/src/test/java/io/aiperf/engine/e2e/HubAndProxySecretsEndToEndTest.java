package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.hub.FakeHub;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import io.aiperf.engine.net.TestProxy;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets in the hub's address (HF_ENDPOINT's user-info and token parameter), in HF_TOKEN and in the proxies the
 * environment names: the hub's and the proxies' failures are said on the console and in the log and exports, with
 * their URLs, and none of these secrets is in any of them.
 */
class HubAndProxySecretsEndToEndTest {
    private static final List<String> SECRETS = List.of("HUBPASS7391", "HUBTOKEN8264", "HFTOKEN5502", "PRXPASS4417");

    @TempDir
    Path tmp;

    /** A loopback port nothing listens on: the hub there cannot be reached. */
    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private String run(final Map<String, String> env, final String name, final int expectedExit,
                       final String... args) throws Exception {
        final Path log = tmp.resolve(name + ".log");
        final ProcessBuilder pb = Runs.engineProcess(List.of(args), log);
        pb.environment().remove("HF_HUB_OFFLINE");
        pb.environment().keySet().removeIf(k -> k.toUpperCase(java.util.Locale.ROOT).endsWith("_PROXY"));
        pb.environment().put("HF_HOME", tmp.resolve("hf").toString());
        pb.environment().put("HF_TOKEN", "HFTOKEN5502");
        pb.environment().putAll(env);
        final Process p = pb.start();
        try {
            assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue(); // a bound, not a timing
            assertThat(p.exitValue()).as(Files.readString(log)).isEqualTo(expectedExit);
        } finally {
            p.destroyForcibly();
        }
        return Files.readString(log);
    }

    private static void noSecretIn(final String what, final String text) {
        for (final String secret : SECRETS) {
            assertThat(text).as(what + ": " + secret).doesNotContain(secret);
        }
    }

    @Test
    void aShortPasswordInAnEnvironmentUrlLeavesTheNumbersAndTheExportsWhole() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("short");
            // "1" alone would mask every digit 1: the exports unreadable, the run without its outcome
            final String console = run(Map.of("HF_ENDPOINT", "https://u:1@hub.invalid", "HTTPS_PROXY",
                    "http://bob:2@127.0.0.1:" + closedPort(), "NO_PROXY", "127.0.0.1"), "short", 0, "profile",
                    "-m", "m", "--tokenizer", "builtin", "-u", mock.url(), "--concurrency", "2", "--request-count",
                    "11", "--isl", "8", "--osl", "2", "--artifact-dir", dir.toString());
            final JsonNode summary = new ObjectMapper().readTree(dir.resolve("profile_export_aiperf.json").toFile());
            assertThat(summary.path("request_count").path("avg").asInt()).as(console).isEqualTo(11);
            assertThat(dir.resolve("cell_outcome.json")).exists();
            assertThat(console).doesNotContain("<redacted>1").doesNotContain("1<redacted>");
        }
    }

    @Test
    void anUnreachableHubIsNamedWithoutItsSecrets() throws Exception {
        final String hub = "http://hub:HUBPASS7391@127.0.0.1:" + closedPort() + "/?token=HUBTOKEN8264";
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            // The model name as tokenizer: the run goes on with a warning, into the log and the exports.
            final Path dir = tmp.resolve("fallback");
            final String console = run(Map.of("HF_ENDPOINT", hub), "fallback", 0, "profile", "-m", "acme/words",
                    "-u", mock.url(), "--request-count", "2", "--isl", "8", "--osl", "2", "--artifact-dir",
                    dir.toString());
            assertThat(console).contains("cannot reach the Hugging Face hub at http://<redacted>@127.0.0.1:")
                    .contains("token=<redacted>");
            noSecretIn("console", console);
            noSecretIn("files", Runs.allText(dir));
            // Named with --tokenizer: one error line, exit 2.
            final String refused = run(Map.of("HF_ENDPOINT", hub), "explicit", 2, "profile", "-m", "m", "-u",
                    mock.url(), "--tokenizer", "acme/words", "--request-count", "2", "--artifact-dir",
                    tmp.resolve("explicit").toString());
            assertThat(refused).contains("error: invalid configuration: --tokenizer").contains("<redacted>");
            noSecretIn("console", refused);
        }
    }

    @Test
    void aHubThatRefusesIsNamedWithoutItsSecrets() throws Exception {
        try (FakeHub hub = new FakeHub(); MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final String endpoint = hub.url().replace("://", "://hub:HUBPASS7391@") + "?token=HUBTOKEN8264";
            final String out = run(Map.of("HF_ENDPOINT", endpoint), "missing", 2, "profile", "-m", "m", "-u",
                    mock.url(), "--tokenizer", "acme/nothing", "--request-count", "2", "--artifact-dir",
                    tmp.resolve("missing").toString());
            assertThat(out).contains("no model 'acme/nothing' on the Hugging Face hub at http://<redacted>@");
            noSecretIn("console", out);
        }
    }

    @Test
    void aProxyOfTheEnvironmentThatRefusesIsNamedWithoutItsPassword() throws Exception {
        try (TestProxy proxy = new TestProxy("Basic bm90LXRoaXM="); MockServer mock = MockServer.start(
                MockServerConfig.fast())) {
            final String withPassword = proxy.url().replace("://", "://perf:PRXPASS4417@");
            // The hub over https is reached through HTTPS_PROXY's tunnel, which the proxy refuses (407).
            final Path dir = tmp.resolve("proxied");
            final String out = run(Map.of("HTTPS_PROXY", withPassword, "HTTP_PROXY", withPassword, "HF_ENDPOINT",
                    "https://hub.example.invalid"), "proxied", 1, "profile", "-m", "acme/words", "-u", mock.url(),
                    "--request-count", "2", "--isl", "8", "--osl", "2", "--artifact-dir", dir.toString());
            assertThat(out).contains("cannot reach the Hugging Face hub at https://hub.example.invalid")
                    .contains("the proxy " + proxy.url());
            noSecretIn("console", out);
            // The inference requests went through HTTP_PROXY too, and failed with its 407: the records say so.
            final String files = Runs.allText(dir);
            assertThat(files).contains("407");
            noSecretIn("files", files);
            assertThat(proxy.authorizations).isNotEmpty();
        }
    }
}
