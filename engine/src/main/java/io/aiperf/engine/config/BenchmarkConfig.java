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
 * @param variations the sweep's points, each with its full config; empty without a sweep
 * @param limits bounds on errors and response sizes
 */
public record BenchmarkConfig(List<String> models, EndpointConfig endpoint, DatasetConfig dataset,
                              List<PhaseConfig> phases, ArtifactsConfig artifacts, TokenizerConfig tokenizer,
                              Map<String, Double> goodputSlos, Long randomSeed, String uiType,
                              MultiRunConfig multiRun, List<String> warnings, ObjectNode effectiveTree,
                              List<Variation> variations, RunLimits limits) {

    /** Whether a sweep expands this config into several variations. */
    public boolean isSweep() {
        return !variations.isEmpty();
    }

    /** The same config for one trial: another seed, and optionally without warmup phases. */
    public BenchmarkConfig forTrial(final Long seed, final boolean dropWarmup) {
        final List<PhaseConfig> kept = dropWarmup
                ? phases.stream().filter(p -> p.kind() != PhaseKind.WARMUP).toList() : phases;
        final List<PhaseConfig> fixed = kept.isEmpty() || !kept.get(0).seamless() ? kept
                : java.util.stream.Stream.concat(java.util.stream.Stream.of(unseamless(kept.get(0))),
                        kept.stream().skip(1)).toList();
        return new BenchmarkConfig(models, endpoint, dataset, fixed, artifacts, tokenizer, goodputSlos, seed, uiType,
                multiRun, warnings, effectiveTree, variations, limits);
    }

    private static PhaseConfig unseamless(final PhaseConfig p) {
        return new PhaseConfig(p.name(), p.kind(), p.type(), p.concurrency(), p.rate(), p.smoothness(), p.requests(), p.sessions(),
                p.durationSeconds(), p.gracePeriodSeconds(), false, p.schedule());
    }

    public String primaryModel() {
        return models.get(0);
    }

    /** The first phase of kind profiling; validation guarantees there is one. */
    public PhaseConfig firstProfilingPhase() {
        return phases.stream().filter(p -> p.kind() == PhaseKind.PROFILING).findFirst().orElseThrow();
    }
}
