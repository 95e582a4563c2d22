package io.aiperf.engine.record;

/** Token counts from the server's last {@code usage} object (reference §5.7); null fields were absent. */
public record Usage(Integer promptTokens, Integer completionTokens, Integer totalTokens, Integer reasoningTokens) {
}
