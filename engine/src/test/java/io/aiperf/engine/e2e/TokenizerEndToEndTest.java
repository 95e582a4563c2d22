package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tokens counted with the model's own tokenizer, a loud fallback for a model name that is none, and exit 2 for a named one that is missing. */
class TokenizerEndToEndTest {
    private static final String WORDS = """
            {"version": "1.0", "truncation": null, "padding": null, "added_tokens": [], "normalizer": null,
             "pre_tokenizer": {"type": "WhitespaceSplit"}, "post_processor": null, "decoder": null,
             "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"}}
            """;

    @TempDir
    Path tmp;

    @Test
    void promptsAreBuiltAndOutputsCountedWithTheNamedTokenizer() throws Exception {
        final Path dir = tmp.resolve("words-tokenizer");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("tokenizer.json"), WORDS);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path run = tmp.resolve("run");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--request-count",
                    "6", "--isl", "40", "--osl", "8", "--tokenizer", dir.toString(), "--artifact-dir", run.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.err()).doesNotContain("builtin-fallback");
            final JsonNode s = Runs.json(run.resolve("profile_export_aiperf.json"));
            assertThat(s.path("input_sequence_length").path("avg").asDouble()).isEqualTo(40.0);
            assertThat(s.path("environment").path("fingerprint").path("tokenizer").asText())
                    .isEqualTo(dir + " (file)");
            final JsonNode info = s.path("environment").path("tokenizer_info");
            assertThat(info.path("source").asText()).isEqualTo("file");
            assertThat(info.path("vocab_size").asInt()).isEqualTo(1); // the test tokenizer's one word
            assertThat(info.path("revision").isNull()).isTrue();
            // Each prompt sent holds exactly 40 whitespace-separated words: the named tokenizer built it.
            final JsonNode contents = Runs.json(run.resolve("inputs.json")).findValue("content");
            assertThat(contents).as("a prompt in inputs.json").isNotNull();
            assertThat(contents.asText().trim().split("\\s+")).hasSize(40);
            // Output tokens are counted with it too: words, where o200k_base would count pieces of words.
            assertThat(s.path("token_accounting").path("client_output_tokens").asLong()).isPositive();
        }
    }

    @Test
    void aModelNameThatIsNoTokenizerFallsBackLoudlyAndTheExportsSaySo() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path run = tmp.resolve("fallback");
            final Runs.Result r = Runs.aiperf("profile", "-m", "served-name", "-u", mock.url(), "--request-count", "3",
                    "--isl", "8", "--osl", "4", "--artifact-dir", run.toString());
            assertThat(r.exitCode()).isZero();
            assertThat(r.err()).contains("warning: the model name 'served-name' is not a tokenizer found here")
                    .contains("approximate");
            assertThat(Runs.json(run.resolve("profile_export_aiperf.json")).path("environment").path("tokenizer")
                    .asText()).isEqualTo("o200k_base (builtin-fallback)");
            assertThat(Runs.json(run.resolve("profile_export_aiperf.json")).path("environment").path("tokenizer_info")
                    .path("vocab_size").asInt()).isEqualTo(200_019);
        }
    }

    @Test
    void aNamedTokenizerThatIsMissingStopsBeforeAnyTraffic() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "3",
                    "--tokenizer", tmp.resolve("no-such-tokenizer").toString(), "--artifact-dir",
                    tmp.resolve("none").toString());
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("--tokenizer (benchmark.tokenizer.name)").contains("cannot load tokenizer");
            assertThat(mock.controlState().inferenceRequests()).isZero();
            assertThat(tmp.resolve("none")).doesNotExist();
        }
    }

    /** The engine in a child JVM whose environment points at the loopback hub, with its cache in the test's folder. */
    private Process withHub(final io.aiperf.engine.hub.FakeHub hub, final Path log, final String... args)
            throws Exception {
        final ProcessBuilder pb = Runs.engineProcess(java.util.List.of(args), log);
        pb.environment().remove("HF_HUB_OFFLINE");
        pb.environment().remove("HF_TOKEN");
        pb.environment().put("HF_ENDPOINT", hub.url());
        pb.environment().put("HF_HOME", tmp.resolve("hf").toString());
        return pb.start();
    }

    @Test
    void aModelAbsentFromTheCacheIsFetchedFromTheHubAndItsCountsAreUsed() throws Exception {
        try (io.aiperf.engine.hub.FakeHub hub = new io.aiperf.engine.hub.FakeHub()
                .repo("acme/words", java.util.Map.of("tokenizer.json", WORDS));
             MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path run = tmp.resolve("hub-run");
            final Path log = tmp.resolve("hub-run.log");
            final Process p = withHub(hub, log, "profile", "-m", "acme/words", "-u", mock.url(), "--streaming",
                    "--request-count", "4", "--isl", "30", "--osl", "6", "--artifact-dir", run.toString());
            assertThat(p.waitFor()).as(Files.readString(log)).isZero();
            assertThat(Files.readString(log)).doesNotContain("o200k_base");
            final JsonNode s = Runs.json(run.resolve("profile_export_aiperf.json"));
            final JsonNode info = s.path("environment").path("tokenizer_info");
            assertThat(info.path("name").asText()).isEqualTo("acme/words");
            assertThat(info.path("source").asText()).isEqualTo("hf-cache");
            assertThat(info.path("vocab_size").asInt()).isEqualTo(1); // the fetched tokenizer's, not o200k's 200,019
            // Prompts were built to 30 of its tokens, that is 30 words, and counted so.
            assertThat(s.path("input_sequence_length").path("avg").asDouble()).isEqualTo(30.0);
            final JsonNode contents = Runs.json(run.resolve("inputs.json")).findValue("content");
            assertThat(contents.asText().trim().split("\\s+")).hasSize(30);
            assertThat(tmp.resolve("hf/hub/models--acme--words/snapshots/" + io.aiperf.engine.hub.FakeHub.COMMIT
                    + "/tokenizer.json")).exists();
        }
    }

    @Test
    void aModelTheHubDoesNotHaveIsOneLineAndExit2BeforeAnyTraffic() throws Exception {
        try (io.aiperf.engine.hub.FakeHub hub = new io.aiperf.engine.hub.FakeHub();
             MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path log = tmp.resolve("missing.log");
            final Process p = withHub(hub, log, "profile", "-m", "acme/nothing", "-u", mock.url(),
                    "--request-count", "3", "--artifact-dir", tmp.resolve("none").toString());
            assertThat(p.waitFor()).isEqualTo(2);
            final String out = Files.readString(log).strip();
            assertThat(out).startsWith("error: invalid configuration: --tokenizer (benchmark.tokenizer.name): no model "
                    + "'acme/nothing' on the Hugging Face hub").doesNotContain("\n").doesNotContain("Exception");
            assertThat(mock.controlState().inferenceRequests()).isZero();
        }
    }
    /**
     * Upstream's tutorials run {@code -m test-model} or {@code -m mock-model} against a mock: such a placeholder
     * counts with the builtin tokenizer, said once, and the hub is never asked, whether it answers or not.
     */
    @Test
    void aPlaceholderModelNameRunsWithTheBuiltinTokenizerWhetherTheHubIsReachableOrNot() throws Exception {
        try (io.aiperf.engine.hub.FakeHub hub = new io.aiperf.engine.hub.FakeHub();
             MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path log = tmp.resolve("placeholder.log");
            final Path run = tmp.resolve("placeholder");
            final Process p = withHub(hub, log, "profile", "-m", "test-model", "-u", mock.url(), "--request-count",
                    "3", "--isl", "16", "--osl", "4", "--artifact-dir", run.toString());
            assertThat(p.waitFor()).as(Files.readString(log)).isZero();
            final String out = Files.readString(log);
            final String said = "the model name 'test-model' looks like a placeholder: counting with the builtin "
                    + "tokenizer (o200k_base)";
            assertThat(out).contains(said);
            assertThat(out.indexOf(said)).isEqualTo(out.lastIndexOf(said));
            assertThat(hub.requests).as("the hub is not asked for a placeholder").isEmpty();
            assertThat(Runs.json(run.resolve("profile_export_aiperf.json")).path("environment").path("tokenizer")
                    .asText()).isEqualTo("o200k_base (builtin)");
        }
        // No hub at all: a loopback port nothing listens on.
        final int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path log = tmp.resolve("placeholder-offline.log");
            final ProcessBuilder pb = Runs.engineProcess(java.util.List.of("profile", "-m", "mock-model", "-u",
                    mock.url(), "--request-count", "3", "--isl", "16", "--osl", "4", "--artifact-dir",
                    tmp.resolve("placeholder-offline").toString()), log);
            pb.environment().remove("HF_HUB_OFFLINE");
            pb.environment().put("HF_ENDPOINT", "http://127.0.0.1:" + closed);
            pb.environment().put("HF_HOME", tmp.resolve("hf").toString());
            assertThat(pb.start().waitFor()).as(Files.readString(log)).isZero();
            assertThat(Files.readString(log)).contains("the model name 'mock-model' looks like a placeholder")
                    .doesNotContain("cannot reach the Hugging Face hub");
        }
    }
}
