package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StartupPreloadTest {
    @Test
    void theBuiltinVocabularyIsPreloadedUnlessAnotherTokenizerIsNamed() {
        assertThat(StartupPreload.builtinTokenizer(List.of("profile", "-m", "m"))).isTrue();
        assertThat(StartupPreload.builtinTokenizer(List.of("profile", "--tokenizer", "builtin"))).isTrue();
        assertThat(StartupPreload.builtinTokenizer(List.of("profile", "--tokenizer=builtin"))).isTrue();
        assertThat(StartupPreload.builtinTokenizer(List.of("profile", "--tokenizer", "/models/llama"))).isFalse();
        assertThat(StartupPreload.builtinTokenizer(List.of("profile", "--tokenizer=Qwen/Qwen3-0.6B"))).isFalse();
    }
}
