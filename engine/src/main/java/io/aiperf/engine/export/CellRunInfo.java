package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.UpstreamVariation;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.summary.SummaryCodec;
import java.util.Locale;

/**
 * Which run, trial and sweep point a cell's summary belongs to, in its {@code run_info} as upstream AIPerf 0.13
 * writes it for a run of several cells: the id the cells share ({@code sweep_id}), the 0-based trial,
 * {@code run_NNNN}, and for a sweep point its upstream label
 * ({@code phases.profiling.concurrency=1}), index and values by dotted path. Stateless.
 */
public final class CellRunInfo {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CellRunInfo() {
    }

    /**
     * @param summary the summary tree before it is written; a run of one cell keeps the defaults
     * @param runId the id the run's cells share, written as {@code sweep_id} when the run has several cells
     */
    public static void apply(final ObjectNode summary, final CellIdentity id, final String runId) {
        if (!(summary.get(SummaryCodec.RUN_INFO) instanceof ObjectNode old)) {
            return;
        }
        if (id.variation() == null && id.numTrials() == 1) {
            return;
        }
        // upstream's order: sweep_id right after benchmark_id
        final ObjectNode info = JSON.createObjectNode();
        old.properties().forEach(e -> {
            info.set(e.getKey(), e.getValue());
            if (e.getKey().equals(SummaryCodec.BENCHMARK_ID)) {
                info.put(SummaryCodec.SWEEP_ID, runId);
            }
        });
        summary.set(SummaryCodec.RUN_INFO, info);
        info.put(SummaryCodec.TRIAL, id.trial() - 1);
        info.put(SummaryCodec.RUN_LABEL, String.format(Locale.ROOT, "run_%04d", id.trial()));
        if (id.variation() != null) {
            info.put(SummaryCodec.VARIATION_LABEL, UpstreamVariation.label(id.parameters()));
            info.put(SummaryCodec.VARIATION_INDEX, id.variationIndex());
            final ObjectNode values = info.putObject(SummaryCodec.VARIATION_VALUES);
            UpstreamVariation.values(id.parameters()).forEach((k, v) -> values.set(k, JSON.valueToTree(v)));
        }
    }
}
