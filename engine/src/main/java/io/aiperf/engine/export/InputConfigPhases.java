package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.LoadType;
import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.config.PhaseKind;
import java.util.List;

/**
 * The {@code phases} of {@code input_config} as upstream AIPerf 0.13's command line writes them: each with its
 * {@code kind} (warmup or profiling) and {@code type} (concurrency, poisson, constant, gamma, fixed_schedule,
 * user_centric), a warmup excluded from the results, a duration-bounded profiling phase with the grace period it
 * ran with, a phase given no bound the request count it ran with, upstream's decimals for its float fields, and upstream's key order.
 */
final class InputConfigPhases {
    /** Upstream's phase keys in its order (its phase models' fields); keys of this engine's own follow as given. */
    private static final List<String> ORDER = List.of("name", "kind", "type", "exclude_from_results", "requests",
            "duration", "sessions", "concurrency", "concurrency_ramp", "prefill_concurrency", "prefill_ramp",
            "grace_period", "cancellation", "seamless", "timing_mode", "failed_request_threshold", "rate",
            "rate_ramp", "rate_series", "smoothness", "users", "auto_offset", "start_offset", "end_offset");
    /** Upstream's float fields of a phase: a whole number given reads {@code 5.0}, as upstream prints it. */
    private static final List<String> DECIMALS = List.of("rate", "duration", "grace_period", "smoothness",
            "failed_request_threshold");

    private InputConfigPhases() {
    }

    /**
     * @param given the phases as given, or null (upstream's command line always writes its profiling phase)
     * @param resolved the phases the engine runs, for each one's kind, type, grace period and request count
     * @param traceRows the rows of the input file, or null: a fixed schedule given no bound sends each once
     */
    static ArrayNode of(final JsonNode given, final List<PhaseConfig> resolved, final Integer traceRows) {
        final ArrayNode out = JsonNodeFactory.instance.arrayNode();
        if (given instanceof ArrayNode list && !list.isEmpty()) {
            for (int i = 0; i < list.size(); i++) {
                final ObjectNode p = list.get(i) instanceof ObjectNode o ? o.deepCopy()
                        : JsonNodeFactory.instance.objectNode();
                out.add(phase(p, match(p, i, resolved), traceRows));
            }
        } else {
            final ObjectNode p = JsonNodeFactory.instance.objectNode().put("name", "profiling");
            out.add(phase(p, match(p, 0, resolved), traceRows));
        }
        return out;
    }

    /** The profiling phase as given (the last one of profiling kind), or null. */
    static JsonNode profiling(final JsonNode given, final List<PhaseConfig> resolved) {
        JsonNode found = null;
        if (given instanceof ArrayNode list) {
            for (int i = 0; i < list.size(); i++) {
                final PhaseConfig r = match(list.get(i), i, resolved);
                final boolean warmup = r != null ? r.kind() == PhaseKind.WARMUP
                        : "warmup".equals(list.get(i).path("kind").asText(list.get(i).path("name").asText()));
                if (!warmup) {
                    found = list.get(i);
                }
            }
        }
        return found;
    }

    private static ObjectNode phase(final ObjectNode p, final PhaseConfig r, final Integer traceRows) {
        final boolean warmup = r != null ? r.kind() == PhaseKind.WARMUP
                : "warmup".equals(p.path("kind").asText(p.path("name").asText()));
        if (!p.has("kind")) {
            p.put("kind", warmup ? "warmup" : "profiling");
        }
        if (!p.has("type")) {
            p.put("type", r != null ? r.type().wireName() : p.has("rate") ? "poisson" : "concurrency");
        }
        if (warmup && !p.has("exclude_from_results")) {
            p.put("exclude_from_results", true);
        }
        if (!warmup && p.has("duration") && !p.has("grace_period") && r != null) {
            p.put("grace_period", r.effectiveGraceSeconds());
        }
        if (!warmup && r != null && !p.has("requests") && !p.has("duration") && !p.has("sessions")) {
            // upstream's command line bounds a phase given no bound; this says the bound this engine ran with
            if (r.requests() != null) {
                p.put("requests", r.requests());
            } else if (r.type() == LoadType.FIXED_SCHEDULE && traceRows != null && traceRows > 0) {
                p.put("requests", traceRows);
            }
        }
        DECIMALS.stream().filter(k -> p.path(k).isIntegralNumber()).forEach(k -> p.put(k, p.get(k).doubleValue()));
        final ObjectNode out = JsonNodeFactory.instance.objectNode();
        ORDER.stream().filter(p::has).forEach(k -> out.set(k, p.remove(k)));
        out.setAll(p);
        return out;
    }

    /** The resolved phase of the same name, else at the same place, else none. */
    private static PhaseConfig match(final JsonNode given, final int index, final List<PhaseConfig> resolved) {
        if (resolved == null || resolved.isEmpty()) {
            return null;
        }
        final String name = given.path("name").asText("");
        for (final PhaseConfig r : resolved) {
            if (r.name() != null && r.name().equals(name)) {
                return r;
            }
        }
        return index < resolved.size() ? resolved.get(index) : null;
    }
}
