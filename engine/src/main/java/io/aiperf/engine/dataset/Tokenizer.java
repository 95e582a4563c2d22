package io.aiperf.engine.dataset;

/**
 * Counts tokens the way a model does (src-docs/tokenizers.md): the model's own Hugging Face tokenizer, or the builtin
 * o200k_base. Implementations are thread-safe.
 */
public interface Tokenizer {
    /** The builtin encoding's name, as the exports record it. */
    String BUILTIN_NAME = "o200k_base";

    /** Tokens in the text, without special tokens. */
    int count(String text);

    /** What the exports call it: a model id or path, or o200k_base. */
    String name();

    /**
     * Where it came from: {@code builtin} (asked for), {@code builtin-fallback} (the model name could not be
     * resolved, so counts are approximate), {@code file} or {@code hf-cache}.
     */
    String source();

    /** The Hugging Face revision it was found under, or null when it did not come from the cache. */
    default String revision() {
        return null;
    }

    /** The {@code tokenizer.json} it was loaded from (its folder may hold a chat template), or null for builtin. */
    default java.nio.file.Path file() {
        return null;
    }

    /** Tokens in its vocabulary, added and special tokens included. */
    int vocabularySize();

    static Tokenizer builtin() {
        return BuiltinTokenizer.INSTANCE;
    }
}
