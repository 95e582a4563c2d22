package io.aiperf.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** AIPerf's adj_* statistics: failed requests as infinitely slow ones, nearest-rank percentiles. */
class ErrorAdjustedStatsTest {
    private static Map<String, Double> adjusted(final int failed, final double... values) {
        try (Distribution d = new Distribution()) {
            for (final double v : values) {
                d.add(v);
            }
            return MetricsAccumulator.adjusted(d.stats(), d, failed);
        }
    }

    @Test
    void failedRequestsPushThePercentilesUpAndHideTheTail() {
        // 8 values and 2 failures: n = 10, index q/100 x 9 rounded half to even.
        final Map<String, Double> a = adjusted(2, 8, 3, 5, 1, 7, 2, 6, 4);
        assertThat(a).containsExactly(Map.entry("adj_p1", 1.0), Map.entry("adj_p5", 1.0), Map.entry("adj_p10", 2.0),
                Map.entry("adj_p25", 3.0), Map.entry("adj_p50", 5.0), Map.entry("adj_p75", 8.0),
                Map.entry("adj_min", 1.0)); // p90 and above fall on failures (infinite): omitted, as avg and max
    }

    @Test
    void withoutFailuresTheyAreTheSamplesNearestRanks() {
        final Map<String, Double> a = adjusted(0, 8, 3, 5, 1, 7, 2, 6, 4);
        assertThat(a.get("adj_avg")).isEqualTo(4.5);
        assertThat(a.get("adj_p50")).isEqualTo(5.0); // index 3.5 rounds half to even: 4, the fifth value
        assertThat(a.get("adj_p25")).isEqualTo(3.0); // index 1.75 rounds to 2
        assertThat(a.get("adj_max")).isEqualTo(8.0);
    }

    @Test
    void spilledValuesGiveTheSameRanks() {
        final SplittableRandom random = new SplittableRandom(3);
        final double[] values = new double[5_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = Math.round(random.nextDouble() * 1e6) / 100.0;
        }
        final long[] ranks = {0, 1, 17, 2_499, 2_500, 4_998, 4_999};
        try (Distribution memory = new Distribution(); Distribution spilled = new Distribution(64)) {
            for (final double v : values) {
                memory.add(v);
                spilled.add(v);
            }
            assertThat(spilled.atRanks(ranks)).containsExactly(memory.atRanks(ranks));
            final double[] sorted = values.clone();
            java.util.Arrays.sort(sorted);
            assertThat(memory.atRanks(ranks)[4]).isEqualTo(sorted[2_500]);
        }
    }
}
