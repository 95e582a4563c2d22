package io.aiperf.engine.dataset;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A tokenizer that remembers the counts of recent short texts. Servers under test often give the same answer again
 * (greedy decoding of a repeated prompt, a fixed mock reply), and counting it once spares the tokenizer's
 * pre-tokenizing regex, the largest per-record cost of a fast run. The count of a text never changes, so the
 * memo cannot change a result; it is bounded, and forgets everything when full. Thread-safe.
 */
public final class MemoTokenizer implements Tokenizer {
    private static final int MAX_ENTRIES = 4096;
    private static final int MAX_CHARS = 4096;
    private final Tokenizer tokenizer;
    private final ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();

    public MemoTokenizer(final Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    @Override
    public int count(final String text) {
        if (text.length() > MAX_CHARS) {
            return tokenizer.count(text);
        }
        final Integer known = counts.get(text);
        if (known != null) {
            return known;
        }
        final int n = tokenizer.count(text);
        if (counts.size() >= MAX_ENTRIES) {
            counts.clear();
        }
        counts.put(text, n);
        return n;
    }

    @Override
    public String name() {
        return tokenizer.name();
    }

    @Override
    public String source() {
        return tokenizer.source();
    }

    @Override
    public String revision() {
        return tokenizer.revision();
    }

    @Override
    public java.nio.file.Path file() {
        return tokenizer.file();
    }

    @Override
    public int vocabularySize() {
        return tokenizer.vocabularySize();
    }
}
