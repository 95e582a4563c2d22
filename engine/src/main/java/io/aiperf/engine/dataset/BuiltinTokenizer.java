package io.aiperf.engine.dataset;

import java.util.regex.Pattern;

/**
 * The builtin tokenizer, o200k_base (AIPerf's {@code --tokenizer builtin}), counted by {@link BytePairCounter} from
 * the rank file JTokkit ships in its jar, so it works offline. Counts without special tokens. Thread-safe.
 */
final class BuiltinTokenizer implements Tokenizer {
    /** o200k_base's split pattern, as tiktoken publishes it (Unicode classes). */
    static final Pattern O200K_PATTERN = Pattern.compile(String.join("|",
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+"
                    + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*"
                    + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
            "\\p{N}{1,3}",
            " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
            "\\s*[\\r\\n]+",
            "\\s+(?!\\S)",
            "\\s+"), Pattern.UNICODE_CHARACTER_CLASS);
    static final BuiltinTokenizer INSTANCE = new BuiltinTokenizer(
            BytePairCounter.load("/com/knuddels/jtokkit/o200k_base.tiktoken", O200K_PATTERN), "builtin");
    private final BytePairCounter counter;
    private final String source;

    private BuiltinTokenizer(final BytePairCounter counter, final String source) {
        this.counter = counter;
        this.source = source;
    }

    BytePairCounter counter() {
        return counter;
    }

    /** The builtin encoding standing in for a tokenizer that could not be found. */
    static Tokenizer fallback() {
        return new BuiltinTokenizer(INSTANCE.counter, "builtin-fallback");
    }

    @Override
    public int count(final String text) {
        return text == null || text.isEmpty() ? 0 : counter.count(text);
    }

    /** o200k_base: 199,998 ranked byte-pair tokens and its special tokens, as tiktoken counts them. */
    @Override
    public int vocabularySize() {
        return 200_019;
    }

    @Override
    public String name() {
        return BUILTIN_NAME;
    }

    @Override
    public String source() {
        return source;
    }
}
