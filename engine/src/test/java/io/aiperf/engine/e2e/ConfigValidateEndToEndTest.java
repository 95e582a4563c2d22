package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code config validate} says what {@code profile} would: the tokenizer it loads and the cells it runs. */
class ConfigValidateEndToEndTest {
    @TempDir
    Path tmp;

    private Runs.Result validate(final String yaml) throws Exception {
        final Path f = tmp.resolve("c.yaml");
        Files.writeString(f, yaml);
        return Runs.aiperf("config", "validate", "-f", f.toString());
    }

    @Test
    void aNamedTokenizerThatCannotBeLoadedIsInvalid() throws Exception {
        final Runs.Result r = validate("""
                benchmark:
                  models: [m]
                  tokenizer: {name: %s}
                """.formatted(tmp.resolve("no-such-tokenizer")));
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("--tokenizer (benchmark.tokenizer.name)").contains("cannot load tokenizer");
    }

    @Test
    void aChatTemplateAskedForOfATokenizerWithoutOneIsInvalid() throws Exception {
        final Runs.Result r = validate("""
                benchmark:
                  models: [m]
                  tokenizer: {name: builtin, apply_chat_template: true}
                """);
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("error: invalid configuration: --apply-chat-template "
                + "(benchmark.tokenizer.apply_chat_template): the tokenizer o200k_base (builtin) has no chat template; "
                + "name the model's tokenizer with --tokenizer");
    }

    @Test
    void aSweepCountsItsCells() throws Exception {
        final Runs.Result r = validate("""
                sweep:
                  parameters:
                    concurrency: [1, 2]
                    isl: [64, 128]
                benchmark:
                  models: [m]
                  tokenizer: {name: builtin}
                """);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains(": valid (4 cells, 1 phase(s) each, model m, tokenizer o200k_base (builtin))");
    }

    @Test
    void aModelThatIsNoTokenizerHereIsValidWithTheFallbackSaid() throws Exception {
        // a served name that cannot be a hub id (llama3:8b): the builtin, said
        final Runs.Result r = validate("benchmark: {models: ['llama3:8b']}\n");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("valid (1 cell, 1 phase(s), model llama3:8b, tokenizer o200k_base");
        assertThat(r.err()).contains("warning: the model name 'llama3:8b' is not a tokenizer found here");
    }

    @Test
    void aHubModelNotCachedHereIsValidWithoutTheNetworkAndCheckedOnlyWhenAsked() throws Exception {
        final Path f = tmp.resolve("hub.yaml");
        Files.writeString(f, "benchmark: {models: [acme/not-cached-here]}\n");
        final Runs.Result r = Runs.aiperf("config", "validate", "-f", f.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("tokenizer acme/not-cached-here (not cached here: loaded at run time; "
                + "--check-tokenizer loads it now)");
        assertThat(r.err()).doesNotContain("Hugging Face hub");
        // Asked, it is loaded as profile loads it (offline here: the builtin, said).
        final Runs.Result checked = Runs.aiperf("config", "validate", "--check-tokenizer", "-f", f.toString());
        assertThat(checked.exitCode()).as(checked.err()).isZero();
        assertThat(checked.out()).contains("tokenizer o200k_base (builtin-fallback)");
    }
}
