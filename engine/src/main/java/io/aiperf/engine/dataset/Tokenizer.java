package io.aiperf.engine.dataset;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/**
 * The builtin tokenizer, o200k_base (AIPerf's {@code --tokenizer builtin}), via JTokkit, which ships the
 * vocabulary in its jar and so works offline. Encodes without special tokens. Thread-safe.
 */
public final class Tokenizer {
    /** The builtin encoding's name, as the exports record it. */
    public static final String BUILTIN_NAME = "o200k_base";
    private static final Tokenizer BUILTIN =
            new Tokenizer(Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE));
    private final Encoding encoding;

    private Tokenizer(final Encoding encoding) {
        this.encoding = encoding;
    }

    public static Tokenizer builtin() {
        return BUILTIN;
    }

    public int count(final String text) {
        return text == null || text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
    }
}
