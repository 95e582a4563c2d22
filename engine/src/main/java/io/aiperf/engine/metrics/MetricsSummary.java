package io.aiperf.engine.metrics;

import java.util.List;
import java.util.Map;

/**
 * The metrics of one phase's records, in display units and registry order.
 *
 * @param metrics tag to value, only for metrics that exist (absent ones are omitted, never zero)
 * @param validCount valid requests
 * @param errorCount failed or invalid requests
 * @param tokens token counts from both sides, for the validity checks (src-docs/validity.md)
 */
public record MetricsSummary(Map<String, MetricValue> metrics, long validCount, long errorCount,
                             List<ErrorSummaryEntry> errorSummary, Long minStartEpochNanos, Long maxEndEpochNanos,
                             TokenAccounting tokens) {

    /**
     * Output tokens as the client counted them against what the server reported, and as delivered against what was
     * asked, summed over the valid requests that had both.
     */
    public record TokenAccounting(long comparedRequests, long clientOutputTokens, long serverOutputTokens,
                                  long oslRequests, long requestedOutputTokens, long deliveredOutputTokens) {
    }


    public MetricValue get(final String tag) {
        return metrics.get(tag);
    }
}
