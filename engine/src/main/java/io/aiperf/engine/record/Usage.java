package io.aiperf.engine.record;

/** Token counts from the server's last {@code usage} object (AIPerf's endpoint and streaming docs); null fields were absent. */
public record Usage(Integer promptTokens, Integer completionTokens, Integer totalTokens, Integer reasoningTokens) {
}
