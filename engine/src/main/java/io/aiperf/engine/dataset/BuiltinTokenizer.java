package io.aiperf.engine.dataset;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/**
 * The builtin tokenizer, o200k_base (AIPerf's {@code --tokenizer builtin}), via JTokkit, which ships the vocabulary
 * in its jar and so works offline. Encodes without special tokens. Thread-safe.
 */
final class BuiltinTokenizer implements Tokenizer {
    static final BuiltinTokenizer INSTANCE =
            new BuiltinTokenizer(Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE), "builtin");
    private final Encoding encoding;
    private final String source;

    private BuiltinTokenizer(final Encoding encoding, final String source) {
        this.encoding = encoding;
        this.source = source;
    }

    /** The builtin encoding standing in for a tokenizer that could not be found. */
    static Tokenizer fallback() {
        return new BuiltinTokenizer(INSTANCE.encoding, "builtin-fallback");
    }

    @Override
    public int count(final String text) {
        return text == null || text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
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
