package io.aiperf.engine.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The memo gives the tokenizer's own counts, and asks the tokenizer once per text it still remembers. */
class MemoTokenizerTest {
    /** Counts words, and which texts it was asked to count. */
    private static final class Words implements Tokenizer {
        final List<String> asked = new ArrayList<>();

        @Override
        public int count(final String text) {
            asked.add(text);
            return text.isBlank() ? 0 : text.trim().split("\\s+").length;
        }

        @Override
        public String name() {
            return "words";
        }

        @Override
        public String source() {
            return "test";
        }

        @Override
        public int vocabularySize() {
            return 0;
        }
    }

    @Test
    void repeatedAndAlternatingTextsAreCountedOnceEach() {
        final Words words = new Words();
        final MemoTokenizer memo = new MemoTokenizer(words);
        final String[] texts = {"one two three", "one two three", "four", "one two three", "four", "", "five six"};
        for (final String t : texts) {
            assertThat(memo.count(new String(t.toCharArray()))).as(t).isEqualTo(new Words().count(t));
        }
        assertThat(words.asked).containsExactly("one two three", "four", "", "five six");
    }

    @Test
    void longTextsAreNotRemembered() {
        final Words words = new Words();
        final MemoTokenizer memo = new MemoTokenizer(words);
        final String longText = "w ".repeat(3000);
        assertThat(memo.count(longText)).isEqualTo(3000);
        assertThat(memo.count(longText)).isEqualTo(3000);
        assertThat(words.asked).hasSize(2);
    }
}
