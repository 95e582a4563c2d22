package io.aiperf.engine.metrics;

import java.util.List;
import java.util.Map;

/**
 * The metrics of one phase's records, in display units and registry order.
 *
 * @param metrics tag to value, only for metrics that exist (absent ones are omitted, never zero)
 * @param records per-request metrics, in session order
 */
public record MetricsSummary(Map<String, MetricValue> metrics, List<RecordMetrics> records,
                             List<ErrorSummaryEntry> errorSummary, Long minStartEpochNanos, Long maxEndEpochNanos) {

    public MetricValue get(final String tag) {
        return metrics.get(tag);
    }
}
