package io.aiperf.engine.dataset;

/**
 * One prompt of the dataset, synthetic or from a file.
 *
 * @param conversationId joins {@code inputs.json} and the per-request records
 * @param prompt the prompt text
 * @param inputTokens token count of {@code prompt}, by the run's tokenizer
 * @param outputTokens the token cap to request, or null
 * @param timestampMs when a trace says to send it (ms), or null
 */
public record DatasetEntry(String conversationId, String prompt, int inputTokens, Integer outputTokens,
                           Long timestampMs) {
}
