package io.aiperf.engine.config;

import java.util.List;
import java.util.Map;

/**
 * The effective, validated configuration of one benchmark cell. Immutable.
 *
 * @param tokenizer which tokenizer counts tokens
 * @param goodputSlos metric tag to threshold in the metric's display unit, in the order given
 * @param randomSeed the seed, or null for entropy
 * @param effective the merged configuration with its defaults, for {@code config expand}, the config hash and the
 *                  exports (secrets not yet redacted)
 * @param given what the user set (YAML and typed flags, in the canonical shape, before defaults): the
 *              exports' {@code input_config} echo (secrets not yet redacted)
 * @param variations the sweep's points, each with its full config; empty without a sweep
 * @param limits bounds on errors and response sizes
 * @param shard this process's share of each cell, or null for all of it
 */
public record BenchmarkConfig(List<String> models, EndpointConfig endpoint, DatasetConfig dataset,
                              List<PhaseConfig> phases, ArtifactsConfig artifacts, TokenizerConfig tokenizer,
                              Map<String, Double> goodputSlos, Long randomSeed, String uiType,
                              MultiRunConfig multiRun, List<String> warnings, ConfigDocument effective, ConfigDocument given,
                              List<Variation> variations, RunLimits limits, Shard shard) {

    /** Whether a sweep expands this config into several variations. */
    public boolean isSweep() {
        return !variations.isEmpty();
    }

    /** Whether a warmup phase runs before the load that is measured. */
    public boolean hasWarmup() {
        return phases.stream().anyMatch(p -> p.kind() == PhaseKind.WARMUP);
    }

    /** The same config with these phases. */
    public BenchmarkConfig withPhases(final List<PhaseConfig> phases) {
        return new BenchmarkConfig(models, endpoint, dataset, phases, artifacts, tokenizer, goodputSlos, randomSeed,
                uiType, multiRun, warnings, effective, given, variations, limits, shard);
    }

    /** The same config against this endpoint. */
    public BenchmarkConfig withEndpoint(final EndpointConfig endpoint) {
        return new BenchmarkConfig(models, endpoint, dataset, phases, artifacts, tokenizer, goodputSlos, randomSeed,
                uiType, multiRun, warnings, effective, given, variations, limits, shard);
    }

    /** The same config with this seed (null for entropy). */
    public BenchmarkConfig withRandomSeed(final Long randomSeed) {
        return new BenchmarkConfig(models, endpoint, dataset, phases, artifacts, tokenizer, goodputSlos, randomSeed,
                uiType, multiRun, warnings, effective, given, variations, limits, shard);
    }

    /** The same config with this effective document ({@code config expand}'s, the config hash's). */
    public BenchmarkConfig withEffective(final ConfigDocument effective) {
        return new BenchmarkConfig(models, endpoint, dataset, phases, artifacts, tokenizer, goodputSlos, randomSeed,
                uiType, multiRun, warnings, effective, given, variations, limits, shard);
    }

    /** The same config expanded into these sweep points. */
    public BenchmarkConfig withVariations(final List<Variation> variations) {
        return new BenchmarkConfig(models, endpoint, dataset, phases, artifacts, tokenizer, goodputSlos, randomSeed,
                uiType, multiRun, warnings, effective, given, variations, limits, shard);
    }

    /** The same config with a warmup of {@code requests} requests at the first phase's load before it. */
    public BenchmarkConfig withWarmup(final int requests) {
        return withPhases(java.util.stream.Stream.concat(
                java.util.stream.Stream.of(phases.get(0).asWarmup(requests)), phases.stream()).toList());
    }

    /** The same config for one trial: another seed, and optionally without warmup phases. */
    public BenchmarkConfig forTrial(final Long seed, final boolean dropWarmup) {
        final List<PhaseConfig> kept = dropWarmup
                ? phases.stream().filter(p -> p.kind() != PhaseKind.WARMUP).toList() : phases;
        final List<PhaseConfig> fixed = kept.isEmpty() || !kept.get(0).seamless() ? kept
                : java.util.stream.Stream.concat(java.util.stream.Stream.of(kept.get(0).with(d -> d.seamless = false)),
                        kept.stream().skip(1)).toList();
        return withPhases(fixed).withRandomSeed(seed);
    }

    /**
     * This shard's part of the cell (src-docs/distributed.md): concurrency, rate, request and session counts
     * divided, and the control hooks only on the first shard. The whole cell without shards.
     */
    public BenchmarkConfig forShard() {
        if (shard == null || shard.count() == 1) {
            return this;
        }
        final List<PhaseConfig> mine = phases.stream().map(p -> p.with(d -> {
            d.concurrency = p.concurrency() == null ? null : shareOf(p.concurrency(), p.name() + " concurrency");
            d.rate = p.rate() == null ? null : p.rate() / shard.count();
            d.requests = p.requests() == null ? null : shareOf(p.requests(), p.name() + " requests");
            d.sessions = p.sessions() == null ? null : shareOf(p.sessions(), p.name() + " sessions");
            d.prefillConcurrency = p.prefillConcurrency() == null ? null
                    : shareOf(p.prefillConcurrency(), p.name() + " prefill concurrency");
            d.users = p.users() == null ? null : shareOf(p.users(), p.name() + " users");
            d.rateSeries = p.rateSeries() == null ? null : p.rateSeries().scaled(1.0 / shard.count());
        })).toList();
        // The seed stays: every shard builds the same dataset and takes its own part of it (CellRunner).
        return withPhases(mine).withEndpoint(shard.runsHooks() ? endpoint : endpoint.withHooks(null, null));
    }

    private int shareOf(final int total, final String what) {
        final int part = shard.share(total);
        if (part < 1) {
            throw new ConfigException("--shard", "the " + what + " (" + total + ") cannot be split into "
                    + shard.count() + " shards: each needs at least 1");
        }
        return part;
    }

    public String primaryModel() {
        return models.get(0);
    }

    /** The first phase of kind profiling; validation guarantees there is one. */
    public PhaseConfig firstProfilingPhase() {
        return phases.stream().filter(p -> p.kind() == PhaseKind.PROFILING).findFirst().orElseThrow();
    }
}
