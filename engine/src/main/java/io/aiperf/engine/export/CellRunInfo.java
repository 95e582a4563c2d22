package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.UpstreamVariation;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.summary.SummaryCodec;
import java.util.Locale;

/**
 * Which trial and which sweep point a cell's summary belongs to, in its {@code run_info} as upstream AIPerf 0.13
 * writes it: the 0-based trial, {@code run_NNNN}, and for a sweep point its upstream label
 * ({@code phases.profiling.concurrency=1}), index and values by dotted path. Stateless.
 */
public final class CellRunInfo {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CellRunInfo() {
    }

    /** @param summary the summary tree before it is written; a run of one cell keeps the defaults */
    public static void apply(final ObjectNode summary, final CellIdentity id) {
        if (!(summary.get(SummaryCodec.RUN_INFO) instanceof ObjectNode info)) {
            return;
        }
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
