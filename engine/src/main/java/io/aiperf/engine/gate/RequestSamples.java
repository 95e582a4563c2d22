package io.aiperf.engine.gate;

import io.aiperf.engine.summary.RecordCodec;
import io.aiperf.engine.summary.RecordLine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    /** The phase of the records that count; a line without a phase (an upstream one) counts too. */
    private static final String PROFILING = "profiling";
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
        final List<RecordLine> valid = new ArrayList<>();
        final long[] firstAnswer = {Long.MAX_VALUE};
        try {
            RecordCodec.forEach(records, r -> {
                final RecordLine.Metadata meta = r.metadata();
                if (meta.benchmarkPhase() != null && !meta.benchmarkPhase().equals(PROFILING)) {
                    return;
                }
                // a failed record's end is when its failure was seen, not an answer
                if (r.valid()) {
                    if (meta.requestEndNs() >= 0) {
                        firstAnswer[0] = Math.min(firstAnswer[0], meta.requestEndNs());
                    }
                    valid.add(r);
                }
            });
        } catch (IOException | RuntimeException e) {
            return null;
        }
        final Map<String, List<Double>> byMetric = new TreeMap<>();
        int excluded = 0;
        for (final RecordLine r : valid) {
            if (!warmedUp && r.metadata().requestStartNs() < firstAnswer[0]) {
                excluded++;
                continue;
            }
            for (final Map.Entry<String, RecordLine.Metric> m : r.metrics().entrySet()) {
                if (m.getValue().value() != null) {
                    byMetric.computeIfAbsent(m.getKey(), k -> new ArrayList<>()).add(m.getValue().number());
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
