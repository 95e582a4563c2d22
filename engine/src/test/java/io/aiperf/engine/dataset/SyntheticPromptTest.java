package io.aiperf.engine.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.ConfigException;
import org.junit.jupiter.api.Test;

/** Synthetic prompts of exactly the tokens asked for, and a clear end when a tokenizer cannot give them. */
class SyntheticPromptTest {
    /** A tokenizer that counts any text as one token, as a broken or hostile tokenizer.json can. */
    private static final Tokenizer ONE_TOKEN = new Tokenizer() {
        @Override
        public int count(final String text) {
            return text == null || text.isEmpty() ? 0 : 1;
        }

        @Override
        public String name() {
            return "one-token";
        }

        @Override
        public String source() {
            return "file";
        }

        @Override
        public int vocabularySize() {
            return 2;
        }
    };

    @Test
    void aPromptHasExactlyTheTokensAskedFor() {
        final Tokenizer words = new WordTokenizer();
        for (final int tokens : new int[] {1, 7, 128}) {
            assertThat(words.count(SyntheticDataset.prompt(tokens, 3, words))).isEqualTo(tokens);
        }
    }

    @Test
    void aTokenizerThatDoesNotGrowWithItsTextEndsInOneClearErrorInsteadOfLoopingForever() {
        assertThatThrownBy(() -> SyntheticDataset.prompt(100, 0, ONE_TOKEN)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("--tokenizer").hasMessageContaining("one-token")
                .hasMessageContaining("does not grow");
    }
}
