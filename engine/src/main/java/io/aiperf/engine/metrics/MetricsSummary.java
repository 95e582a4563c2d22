package io.aiperf.engine.metrics;

import java.util.List;
import java.util.Map;

/**
 * The metrics of one phase's records, in display units and registry order.
 *
 * @param metrics tag to value, only for metrics that exist (absent ones are omitted, never zero)
 * @param validCount valid requests
 * @param errorCount failed or invalid requests
 */
public record MetricsSummary(Map<String, MetricValue> metrics, long validCount, long errorCount,
                             List<ErrorSummaryEntry> errorSummary, Long minStartEpochNanos, Long maxEndEpochNanos) {

    public MetricValue get(final String tag) {
        return metrics.get(tag);
    }
}
