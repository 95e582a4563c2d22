package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * The effective, validated configuration of one benchmark cell. Immutable.
 *
 * @param tokenizer tokenizer name; "builtin" is o200k_base
 * @param goodputSlos metric tag to threshold in the metric's display unit, in the order given
 * @param randomSeed the seed, or null for entropy
 * @param effectiveTree the merged configuration tree, for {@code config expand} and the exports
 *                      (secrets not yet redacted)
 */
public record BenchmarkConfig(List<String> models, EndpointConfig endpoint, DatasetConfig dataset,
                              List<PhaseConfig> phases, ArtifactsConfig artifacts, String tokenizer,
                              Map<String, Double> goodputSlos, Long randomSeed, String uiType,
                              List<String> warnings, ObjectNode effectiveTree) {

    public String primaryModel() {
        return models.get(0);
    }

    /** The first phase of kind profiling; validation guarantees there is one. */
    public PhaseConfig firstProfilingPhase() {
        return phases.stream().filter(p -> p.kind() == PhaseKind.PROFILING).findFirst().orElseThrow();
    }
}
