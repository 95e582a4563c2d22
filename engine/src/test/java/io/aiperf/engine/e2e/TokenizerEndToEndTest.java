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
}
