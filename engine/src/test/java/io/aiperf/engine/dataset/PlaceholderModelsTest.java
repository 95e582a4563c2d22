package io.aiperf.engine.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.TokenizerConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The placeholder rule upstream AIPerf 0.13 applies to model names, and that only an unnamed tokenizer uses it. */
class PlaceholderModelsTest {
    @Test
    void placeholdersAreTheBareWordsAndTheHyphenatedMarkers() {
        assertThat(PlaceholderModels.isPlaceholder("test-model")).isTrue();
        assertThat(PlaceholderModels.isPlaceholder("mock-model")).isTrue();
        assertThat(PlaceholderModels.isPlaceholder("Test_Model_v2")).isTrue();
        assertThat(PlaceholderModels.isPlaceholder("fake-llama")).isTrue();
        assertThat(PlaceholderModels.isPlaceholder("llama-mock")).isTrue();
        assertThat(PlaceholderModels.isPlaceholder("my-model")).isTrue();
        assertThat(PlaceholderModels.isPlaceholder("dummy")).isTrue();
        assertThat(PlaceholderModels.isPlaceholder("MOCK")).isTrue();
    }

    @Test
    void realNamesPathsAndWordsThatMerelyContainAMarkerAreNot() {
        assertThat(PlaceholderModels.isPlaceholder("Qwen/Qwen3-0.6B")).isFalse();
        assertThat(PlaceholderModels.isPlaceholder("acme/test-model")).isFalse(); // a hub id: looked up
        assertThat(PlaceholderModels.isPlaceholder("./local-model")).isFalse();
        assertThat(PlaceholderModels.isPlaceholder("~/mock-model")).isFalse();
        assertThat(PlaceholderModels.isPlaceholder("contestant")).isFalse();
        assertThat(PlaceholderModels.isPlaceholder("testing")).isFalse();
        assertThat(PlaceholderModels.isPlaceholder("gpt2")).isFalse();
        assertThat(PlaceholderModels.isPlaceholder("")).isFalse();
    }

    @Test
    void onlyTheModelNameUsedAsTheDefaultTokenizerFallsBack() {
        final TokenizerResolver.Resolved r = TokenizerResolver.resolve(new TokenizerConfig(null, null, false),
                "mock-model", Map.of());
        assertThat(r.tokenizer().source()).isEqualTo("builtin");
        assertThat(r.warning()).startsWith("the model name 'mock-model' looks like a placeholder");
    }
}
