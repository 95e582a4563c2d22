package io.aiperf.engine.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.TokenizerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model's own tokenizer from a file, a directory or the Hugging Face cache; the builtin only as a said fallback. */
class TokenizerResolverTest {
    /** A word-level tokenizer in Hugging Face's format: every whitespace-separated word is one token. */
    static final String WORDS = """
            {"version": "1.0", "truncation": null, "padding": null, "added_tokens": [], "normalizer": null,
             "pre_tokenizer": {"type": "WhitespaceSplit"}, "post_processor": null, "decoder": null,
             "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "hello": 1, "world": 2}, "unk_token": "[UNK]"}}
            """;

    @TempDir
    Path tmp;

    static Path writeWords(final Path dir) throws Exception {
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve("tokenizer.json"), WORDS);
    }

    private static TokenizerConfig named(final String name) {
        return new TokenizerConfig(name, "main", false);
    }

    @Test
    void aTokenizerJsonFileOrItsDirectoryIsLoadedAndCountsAsTheModelWould() throws Exception {
        final Path file = writeWords(tmp.resolve("local"));
        final TokenizerResolver.Resolved byFile = TokenizerResolver.resolve(named(file.toString()), "m", Map.of());
        assertThat(byFile.warning()).isNull();
        assertThat(byFile.tokenizer().count("hello brave new world.")).isEqualTo(4); // o200k_base says 5
        assertThat(Tokenizer.builtin().count("hello brave new world.")).isEqualTo(5);
        assertThat(byFile.tokenizer().source()).isEqualTo("file");
        final TokenizerResolver.Resolved byDir = TokenizerResolver.resolve(named(tmp.resolve("local").toString()), "m",
                Map.of());
        assertThat(byDir.tokenizer().count("a b c")).isEqualTo(3);
    }

    @Test
    void theHuggingFaceCacheIsSearchedByModelIdAndRevision() throws Exception {
        final Path hub = tmp.resolve("hf/hub");
        final Path repo = hub.resolve("models--acme--tiny-model");
        writeWords(repo.resolve("snapshots/0123abcd"));
        Files.createDirectories(repo.resolve("refs"));
        Files.writeString(repo.resolve("refs/main"), "0123abcd\n");
        // The default is the model name, found in the cache through HF_HOME.
        final TokenizerResolver.Resolved byModel = TokenizerResolver.resolve(new TokenizerConfig(null, "main", false),
                "acme/tiny-model", Map.of("HF_HOME", tmp.resolve("hf").toString()));
        assertThat(byModel.warning()).isNull();
        assertThat(byModel.tokenizer().source()).isEqualTo("hf-cache");
        assertThat(byModel.tokenizer().name()).isEqualTo("acme/tiny-model");
        assertThat(byModel.tokenizer().count("one two")).isEqualTo(2);
        // A revision given as a commit, through HF_HUB_CACHE.
        assertThat(TokenizerResolver.resolve(new TokenizerConfig("acme/tiny-model", "0123abcd", false), "m",
                Map.of("HF_HUB_CACHE", hub.toString())).tokenizer().source()).isEqualTo("hf-cache");
        // Without HF_HOME, huggingface_hub's home is under XDG_CACHE_HOME when that is set.
        Files.move(tmp.resolve("hf"), Files.createDirectories(tmp.resolve("xdg")).resolve("huggingface"));
        assertThat(TokenizerResolver.resolve(new TokenizerConfig(null, "main", false), "acme/tiny-model",
                Map.of("XDG_CACHE_HOME", tmp.resolve("xdg").toString())).tokenizer().source()).isEqualTo("hf-cache");
    }

    @Test
    void aNamedTokenizerThatCannotBeFoundStopsTheRunNamingWhereItLooked() {
        assertThatThrownBy(() -> TokenizerResolver.resolve(named("acme/missing"), "m",
                Map.of("HF_HUB_CACHE", tmp.resolve("hub").toString(), "HF_HUB_OFFLINE", "1")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("--tokenizer")
                .hasMessageContaining("cannot load tokenizer 'acme/missing'")
                .hasMessageContaining("models--acme--missing")
                .hasMessageContaining("Hugging Face hub");
    }

    @Test
    void offlineAModelNameThatIsNoTokenizerFallsBackToTheBuiltinLoudly() {
        final TokenizerResolver.Resolved r = TokenizerResolver.resolve(new TokenizerConfig(null, "main", false),
                "served-name", Map.of("HF_HUB_CACHE", tmp.resolve("hub").toString(), "HF_HUB_OFFLINE", "1"));
        assertThat(r.tokenizer().source()).isEqualTo("builtin-fallback");
        assertThat(r.tokenizer().name()).isEqualTo("o200k_base");
        assertThat(r.warning()).contains("'served-name'").contains("approximate").contains("--tokenizer builtin");
        assertThat(TokenizerResolver.resolve(named("builtin"), "m", Map.of()).warning()).isNull();
    }

    @Test
    void aFileThatIsNoTokenizerIsAClearError() throws Exception {
        final Path bad = Files.writeString(tmp.resolve("tokenizer.json"), "{\"not\": \"a tokenizer\"}");
        assertThatThrownBy(() -> TokenizerResolver.resolve(named(bad.toString()), "m", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("cannot read");
    }
}
