package io.aiperf.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.dataset.WordTokenizer;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;
import io.aiperf.engine.record.Usage;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Upstream 0.13's prompt-cache formulas on hand-computed values: the per-request count is the server's, the total
 * their sum, and the overall percentage that sum over the summed usage prompt tokens (weighted by tokens, not an
 * average of per-request shares).
 */
class PromptCacheMetricsTest {
    private static final long MS = 1_000_000L;
    private static final String CACHE = "usage_prompt_cache_read_tokens";
    private static final String TOTAL = "total_usage_prompt_cache_read_tokens";
    private static final String OVERALL = "overall_usage_prompt_cache_read_pct";

    private static RecordMetrics request(final Usage usage) {
        final long[] chunks = {21 * MS, 31 * MS};
        final ResponseData response = new ResponseData(1 * MS, 2 * MS, chunks, chunks.length, 0, "a b", null, usage,
                null, 0, TransportTimes.NONE, true);
        return RecordMetrics.of(new RequestRecord("profiling", true, 0, "id", "c", "conv", 0, "m", 0L, 12, 64,
                response, false, -1, null, -1, 0), true, false, new WordTokenizer());
    }

    private static MetricsSummary summary(final Usage... usages) {
        try (MetricsAccumulator acc = new MetricsAccumulator(Map.of())) {
            for (final Usage u : usages) {
                acc.add(request(u));
            }
            return acc.summary();
        }
    }

    @Test
    void theOverallShareIsWeightedByPromptTokens() {
        // per-request shares 50% and 0%: their mean would be 25%, the token-weighted share is 10 / 100
        final MetricsSummary s = summary(new Usage(20, 2, 22, null, 10), new Usage(80, 2, 82, null, 0),
                new Usage(0, 2, 2, null, null));
        assertThat(s.get(CACHE).stats().count()).isEqualTo(2);
        assertThat(s.get(CACHE).stats().avg()).isEqualTo(5.0);
        assertThat(s.get(TOTAL).value()).isEqualTo(10.0);
        assertThat(s.get(OVERALL).value()).isEqualTo(10.0);
        assertThat(s.get(OVERALL).spec().unit()).isEqualTo("%");
        assertThat(MetricsAccumulator.cacheReadPct(75, 1548)).isEqualTo(75 * 100.0 / 1548);
    }

    @Test
    void noReportedReadsNoKeysAndNoPromptTokensNoShare() {
        final MetricsSummary none = summary(new Usage(20, 2, 22, null), new Usage(30, 2, 32, null));
        assertThat(none.metrics()).doesNotContainKeys(CACHE, TOTAL, OVERALL).containsKey("total_usage_prompt_tokens");
        // reads reported but no prompt count: the total stands, the share cannot be computed (upstream's NoMetricValue)
        final MetricsSummary noPrompt = summary(new Usage(null, 2, 2, null, 4));
        assertThat(noPrompt.get(TOTAL).value()).isEqualTo(4.0);
        assertThat(noPrompt.metrics()).doesNotContainKey(OVERALL);
        assertThat(MetricsAccumulator.cacheReadPct(4, 0)).isNaN();
    }

    @Test
    void theRecordCarriesTheServersCountOrNothing() {
        assertThat(MetricRegistry.USAGE_PROMPT_CACHE_READ.displayValue(request(new Usage(20, 2, 22, null, 7))))
                .isEqualTo(7.0);
        assertThat(MetricRegistry.USAGE_PROMPT_CACHE_READ.displayValue(request(new Usage(20, 2, 22, null))))
                .isNaN();
        assertThat(MetricRegistry.USAGE_PROMPT_CACHE_READ.displayValue(request(null))).isNaN();
    }
}
