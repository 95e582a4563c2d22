package io.aiperf.engine.search;

import java.util.List;

/**
 * What a capacity search looks for (src-docs/capacity.md): the highest concurrency in {@code [min, max]} whose
 * cell meets every SLO.
 *
 * @param recipe the upstream recipe it came from, or null for explicit options
 * @param maxProbes the most points probed
 */
public record SearchSpec(String knob, int min, int max, List<Sla> slas, int maxProbes, String recipe) {
    public static final String CONCURRENCY = "concurrency";
    public static final int DEFAULT_MAX_PROBES = 8;
}
