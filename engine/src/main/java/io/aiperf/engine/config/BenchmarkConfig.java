package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * The effective, validated configuration of one benchmark cell. Immutable.
 *
 * @param tokenizer which tokenizer counts tokens
 * @param goodputSlos metric tag to threshold in the metric's display unit, in the order given
 * @param randomSeed the seed, or null for entropy
 * @param effectiveTree the merged configuration tree, for {@code config expand} and the exports
 *                      (secrets not yet redacted)
 * @param givenTree what the user set (YAML and typed flags, in the canonical shape, before defaults): the
 *                  exports' {@code input_config} echo (secrets not yet redacted)
 * @param variations the sweep's points, each with its full config; empty without a sweep
 * @param limits bounds on errors and response sizes
 * @param shard this process's share of each cell, or null for all of it
 */
public record BenchmarkConfig(List<String> models, EndpointConfig endpoint, DatasetConfig dataset,
                              List<PhaseConfig> phases, ArtifactsConfig artifacts, TokenizerConfig tokenizer,
                              Map<String, Double> goodputSlos, Long randomSeed, String uiType,
                              MultiRunConfig multiRun, List<String> warnings, ObjectNode effectiveTree, ObjectNode givenTree,
                              List<Variation> variations, RunLimits limits, Shard shard) {

    /** Whether a sweep expands this config into several variations. */
    public boolean isSweep() {
        return !variations.isEmpty();
    }

    /** Whether a warmup phase runs before the load that is measured. */
    public boolean hasWarmup() {
        return phases.stream().anyMatch(p -> p.kind() == PhaseKind.WARMUP);
    }

    /** The same config with a warmup of {@code requests} requests at the first phase's load before it. */
    public BenchmarkConfig withWarmup(final int requests) {
        final List<PhaseConfig> warmed = java.util.stream.Stream.concat(
                java.util.stream.Stream.of(phases.get(0).asWarmup(requests)), phases.stream()).toList();
        return new BenchmarkConfig(models, endpoint, dataset, warmed, artifacts, tokenizer, goodputSlos, randomSeed,
                uiType, multiRun, warnings, effectiveTree, givenTree, variations, limits, shard);
    }

    /** The same config for one trial: another seed, and optionally without warmup phases. */
    public BenchmarkConfig forTrial(final Long seed, final boolean dropWarmup) {
        final List<PhaseConfig> kept = dropWarmup
                ? phases.stream().filter(p -> p.kind() != PhaseKind.WARMUP).toList() : phases;
        final List<PhaseConfig> fixed = kept.isEmpty() || !kept.get(0).seamless() ? kept
                : java.util.stream.Stream.concat(java.util.stream.Stream.of(unseamless(kept.get(0))),
                        kept.stream().skip(1)).toList();
        return new BenchmarkConfig(models, endpoint, dataset, fixed, artifacts, tokenizer, goodputSlos, seed, uiType,
                multiRun, warnings, effectiveTree, givenTree, variations, limits, shard);
    }

    /**
     * This shard's part of the cell (src-docs/distributed.md): concurrency, rate, request and session counts
     * divided, and the control hooks only on the first shard. The whole cell without shards.
     */
    public BenchmarkConfig forShard() {
        if (shard == null || shard.count() == 1) {
            return this;
        }
        final List<PhaseConfig> mine = phases.stream().map(p -> new PhaseConfig(p.name(), p.kind(), p.type(),
                p.concurrency() == null ? null : shareOf(p.concurrency(), p.name() + " concurrency"),
                p.rate() == null ? null : p.rate() / shard.count(), p.smoothness(),
                p.requests() == null ? null : shareOf(p.requests(), p.name() + " requests"),
                p.sessions() == null ? null : shareOf(p.sessions(), p.name() + " sessions"), p.durationSeconds(),
                p.gracePeriodSeconds(), p.seamless(), p.schedule(), p.concurrencyRampSeconds(),
                p.rateRampSeconds(), p.prefillConcurrency() == null ? null
                : shareOf(p.prefillConcurrency(), p.name() + " prefill concurrency"),
                p.failedRequestThreshold(), p.users() == null ? null : shareOf(p.users(), p.name() + " users"),
                p.prefillRampSeconds(), p.rateSeries() == null ? null : p.rateSeries().scaled(1.0 / shard.count()),
                p.cancellation()))
                .toList();
        final EndpointConfig e = endpoint;
        final EndpointConfig hooks = shard.runsHooks() ? e : new EndpointConfig(e.urls(), e.type(), e.customPath(),
                e.streaming(), e.apiKey(), e.headers(), e.extra(), e.timeoutSeconds(), e.useServerTokenCount(),
                e.useLegacyMaxTokens(), null, null, e.tls(), e.serverMetrics(), e.modelSelection(), e.sessionHeader(),
                e.template(), e.gpuTelemetry(), e.proxy(), e.http2(), e.connectionReuse(), e.waitForModel(),
                e.perChunkUsage());
        // The seed stays: every shard builds the same dataset and takes its own part of it (CellRunner).
        return new BenchmarkConfig(models, hooks, dataset, mine, artifacts, tokenizer, goodputSlos, randomSeed, uiType,
                multiRun, warnings, effectiveTree, givenTree, variations, limits, shard);
    }

    private int shareOf(final int total, final String what) {
        final int part = shard.share(total);
        if (part < 1) {
            throw new ConfigException("--shard", "the " + what + " (" + total + ") cannot be split into "
                    + shard.count() + " shards: each needs at least 1");
        }
        return part;
    }

    private static PhaseConfig unseamless(final PhaseConfig p) {
        return new PhaseConfig(p.name(), p.kind(), p.type(), p.concurrency(), p.rate(), p.smoothness(), p.requests(), p.sessions(),
                p.durationSeconds(), p.gracePeriodSeconds(), false, p.schedule(), p.concurrencyRampSeconds(),
                p.rateRampSeconds(), p.prefillConcurrency(), p.failedRequestThreshold(), p.users(),
                p.prefillRampSeconds(), p.rateSeries(), p.cancellation());
    }

    public String primaryModel() {
        return models.get(0);
    }

    /** The first phase of kind profiling; validation guarantees there is one. */
    public PhaseConfig firstProfilingPhase() {
        return phases.stream().filter(p -> p.kind() == PhaseKind.PROFILING).findFirst().orElseThrow();
    }
}
