package io.aiperf.engine.dataset;

import java.util.ArrayList;
import java.util.List;

/**
 * A tokenizer for tests: one token per space-separated word, so the counts a test expects are plain to see. It
 * keeps the texts it was asked to count, for tests of what reaches the tokenizer.
 */
public final class WordTokenizer implements Tokenizer {
    private final List<String> asked = new ArrayList<>();

    @Override
    public int count(final String text) {
        asked.add(text);
        return text.isBlank() ? 0 : text.strip().split("\\s+").length;
    }

    /** The texts counted so far, in order. */
    public List<String> asked() {
        return asked;
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
