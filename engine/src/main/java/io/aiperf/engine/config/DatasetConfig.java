package io.aiperf.engine.config;

/**
 * Synthetic prompts (AIPerf's endpoint and streaming docs).
 *
 * @param entries number of distinct dataset entries
 * @param islMean mean input length in tokens
 * @param oslMean mean output cap in tokens, or null for no cap
 */
public record DatasetConfig(int entries, double islMean, double islStddev, Double oslMean, double oslStddev) {
}
