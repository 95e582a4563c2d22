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
    /** The text counted last and its count, published whole (a record's fields are final). */
    private volatile Counted last;

    public MemoTokenizer(final Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    @Override
    public int count(final String text) {
        if (text.length() > MAX_CHARS) {
            return tokenizer.count(text);
        }
        // The last text first: a server that repeats itself repeats its last answer, and comparing with it costs
        // less than hashing a new String for the map (each answer is a new String, its hash not yet computed).
        final Counted last = this.last;
        if (last != null && last.text.equals(text)) {
            return last.count;
        }
        final Integer known = counts.get(text);
        final int n = known != null ? known : tokenizer.count(text);
        if (known == null) {
            if (counts.size() >= MAX_ENTRIES) {
                counts.clear();
            }
            counts.put(text, n);
        }
        this.last = new Counted(text, n);
        return n;
    }

    private record Counted(String text, int count) {
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
