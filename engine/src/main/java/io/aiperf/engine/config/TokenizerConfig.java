package io.aiperf.engine.config;

/**
 * Which tokenizer counts tokens (the {@code tokenizer} section, src-docs/tokenizers.md).
 *
 * @param name a local {@code tokenizer.json} (or a directory holding one), a Hugging Face model id (from the local
 *             Hugging Face cache, else downloaded from the hub), or {@code builtin}; null means the model name, as
 *             upstream AIPerf does
 * @param revision the Hugging Face revision (a branch, tag or commit) to look up in the cache or download
 * @param trustRemoteCode accepted for AIPerf compatibility; a {@code tokenizer.json} runs no code either way
 * @param applyChatTemplate count input tokens of chat requests as rendered through the model's chat template
 */
public record TokenizerConfig(String name, String revision, boolean trustRemoteCode, boolean applyChatTemplate) {
    public static final String BUILTIN = "builtin";

    public TokenizerConfig(final String name, final String revision, final boolean trustRemoteCode) {
        this(name, revision, trustRemoteCode, false);
    }

    public static TokenizerConfig builtin() {
        return new TokenizerConfig(BUILTIN, "main", false);
    }

    /** Whether the user named a tokenizer (then failing to load it is an error, not a fallback). */
    public boolean explicit() {
        return name != null;
    }
}
