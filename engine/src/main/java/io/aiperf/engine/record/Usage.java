package io.aiperf.engine.record;

/**
 * Token counts from the server's last {@code usage} object (AIPerf's endpoint and streaming docs); null fields were
 * absent.
 *
 * @param cacheReadTokens the prompt tokens the server served from its prompt cache (OpenAI's
 *                        {@code prompt_tokens_details.cached_tokens}, Anthropic's {@code cache_read_input_tokens})
 */
public record Usage(Integer promptTokens, Integer completionTokens, Integer totalTokens, Integer reasoningTokens,
                    Integer cacheReadTokens) {

    /** Counts from a server that reports no prompt-cache reads. */
    public Usage(final Integer promptTokens, final Integer completionTokens, final Integer totalTokens,
                 final Integer reasoningTokens) {
        this(promptTokens, completionTokens, totalTokens, reasoningTokens, null);
    }
}
