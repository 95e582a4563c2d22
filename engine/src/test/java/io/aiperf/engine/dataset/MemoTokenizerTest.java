package io.aiperf.engine.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The memo gives the tokenizer's own counts, and asks the tokenizer once per text it still remembers. */
class MemoTokenizerTest {
    @Test
    void repeatedAndAlternatingTextsAreCountedOnceEach() {
        final WordTokenizer words = new WordTokenizer();
        final MemoTokenizer memo = new MemoTokenizer(words);
        final String[] texts = {"one two three", "one two three", "four", "one two three", "four", "", "five six"};
        for (final String t : texts) {
            assertThat(memo.count(new String(t.toCharArray()))).as(t).isEqualTo(new WordTokenizer().count(t));
        }
        assertThat(words.asked()).containsExactly("one two three", "four", "", "five six");
    }

    @Test
    void longTextsAreNotRemembered() {
        final WordTokenizer words = new WordTokenizer();
        final MemoTokenizer memo = new MemoTokenizer(words);
        final String longText = "w ".repeat(3000);
        assertThat(memo.count(longText)).isEqualTo(3000);
        assertThat(memo.count(longText)).isEqualTo(3000);
        assertThat(words.asked()).hasSize(2);
    }
}
