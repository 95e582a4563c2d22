package io.aiperf.engine.config;

import java.util.Map;

/**
 * One point of a parameter sweep (AIPerf's multi-run and sweep docs).
 *
 * @param label directory name, {@code <name>_<value>} joined by {@code __}
 * @param values parameter name to value, in axis order
 * @param config the full config of this point
 */
public record Variation(String label, int index, Map<String, Object> values, BenchmarkConfig config) {
}
