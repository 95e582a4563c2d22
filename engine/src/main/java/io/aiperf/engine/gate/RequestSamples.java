package io.aiperf.engine.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The per-request values of one trial of a cell, from its records ({@code profile_export.jsonl}), without its
 * start-up (src-docs/gating.md, "One trial per side"): a run that had a warmup phase keeps every profiling request;
 * a run without one leaves out its first wave, the requests sent before the first answer came back, which paid for
 * the connections, the caches and the JIT compiler. Both sides of a comparison follow the same rule. Immutable.
 */
public final class RequestSamples {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, double[]> values;
    private final int excluded;

    private RequestSamples(final Map<String, double[]> values, final int excluded) {
        this.values = values;
        this.excluded = excluded;
    }

    /**
     * Reads a records file.
     *
     * @param warmedUp whether the trial had a warmup phase (its summary has {@code warmup_metrics})
     * @return the samples, or null when the file is missing or unreadable (the gate then compares summaries)
     */
    public static RequestSamples read(final Path records, final boolean warmedUp) {
        if (!Files.isRegularFile(records)) {
            return null;
        }
        final List<JsonNode> valid = new ArrayList<>();
        long firstAnswer = Long.MAX_VALUE;
        try (BufferedReader in = Files.newBufferedReader(records, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                final JsonNode r = JSON.readTree(line);
                final JsonNode meta = r.path("metadata");
                if (!meta.path("benchmark_phase").asText("profiling").equals("profiling")) {
                    continue;
                }
                // a failed record's end is when its failure was seen, not an answer
                if (r.path("error").isMissingNode() || r.path("error").isNull()) {
                    if (meta.path("request_end_ns").isNumber()) {
                        firstAnswer = Math.min(firstAnswer, meta.path("request_end_ns").asLong());
                    }
                    valid.add(r);
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        final Map<String, List<Double>> byMetric = new TreeMap<>();
        int excluded = 0;
        for (final JsonNode r : valid) {
            if (!warmedUp && r.path("metadata").path("request_start_ns").asLong(Long.MAX_VALUE) < firstAnswer) {
                excluded++;
                continue;
            }
            final Iterator<Map.Entry<String, JsonNode>> it = r.path("metrics").properties().iterator();
            while (it.hasNext()) {
                final Map.Entry<String, JsonNode> m = it.next();
                final JsonNode v = m.getValue().path("value");
                if (v.isNumber()) {
                    byMetric.computeIfAbsent(m.getKey(), k -> new ArrayList<>()).add(v.asDouble());
                }
            }
        }
        final Map<String, double[]> out = new TreeMap<>();
        byMetric.forEach((k, v) -> out.put(k, v.stream().mapToDouble(Double::doubleValue).toArray()));
        return new RequestSamples(out, excluded);
    }

    /** One value per measured request of {@code metric}, in the metric's display unit; empty when none. */
    public double[] values(final String metric) {
        return values.getOrDefault(metric, new double[0]).clone();
    }

    /** How many valid requests the start-up rule left out. */
    public int excluded() {
        return excluded;
    }
}
