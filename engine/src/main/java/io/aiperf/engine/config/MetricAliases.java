package io.aiperf.engine.config;

import java.util.Locale;
import java.util.Map;

/**
 * The short metric names of vLLM's {@code bench serve} and of common use, accepted wherever a metric is named (rules,
 * {@code --goodput}, the YAML's {@code slos}) and resolved to the catalogue's tag: TTFT, TPOT (time per output token
 * after the first, which is AIPerf's inter-token latency), ITL, and E2EL (end-to-end latency).
 */
public final class MetricAliases {
    private static final Map<String, String> ALIASES = Map.of(
            "ttft", "time_to_first_token",
            "tpot", "inter_token_latency",
            "itl", "inter_token_latency",
            "e2el", "request_latency");

    private MetricAliases() {
    }

    /** The catalogue tag for {@code name}: an alias resolved (any case), any other name as given. */
    public static String resolve(final String name) {
        return ALIASES.getOrDefault(name.toLowerCase(Locale.ROOT), name);
    }

    public static Map<String, String> all() {
        return ALIASES;
    }
}
