package io.aiperf.engine.dataset;

/**
 * One synthetic prompt.
 *
 * @param conversationId joins {@code inputs.json} and the per-request records
 * @param prompt the prompt text
 * @param inputTokens exact token count of {@code prompt}
 * @param outputTokens the token cap to request, or null
 */
public record DatasetEntry(String conversationId, String prompt, int inputTokens, Integer outputTokens) {
}
