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
        final Runs.Result r = validate("benchmark: {models: [served-name]}\n");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("valid (1 cell, 1 phase(s), model served-name, tokenizer o200k_base");
        assertThat(r.err()).contains("warning: the model name 'served-name' is not a tokenizer found here");
    }
}
