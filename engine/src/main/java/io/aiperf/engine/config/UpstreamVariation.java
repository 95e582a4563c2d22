package io.aiperf.engine.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A sweep point as upstream AIPerf 0.13 names it in {@code run_info} and in the trial aggregate's metadata: its
 * values by dotted config path ({@code phases.profiling.concurrency}, {@code datasets.default.prompts.isl}) and the
 * label {@code path=value, path=value}. Our own label ({@code concurrency_1}) stays the directory name. Stateless.
 */
public final class UpstreamVariation {
    private UpstreamVariation() {
    }

    /** @param parameters our parameter names to values, in axis order */
    public static Map<String, Object> values(final Map<String, Object> parameters) {
        final Map<String, Object> out = new LinkedHashMap<>();
        parameters.forEach((name, v) -> out.put(path(name), v));
        return out;
    }

    public static String label(final Map<String, Object> parameters) {
        return values(parameters).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }

    /** Upstream keeps its datasets in a list named by dataset ({@code default} when unnamed). */
    private static String path(final String name) {
        final String ours = SweepExpander.path(name, DeclaredOptions.installed());
        return ours.startsWith("dataset.") ? "datasets.default." + ours.substring("dataset.".length()) : ours;
    }
}
