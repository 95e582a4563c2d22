package io.aiperf.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplayScheduleLagTest {
    private static final double MS = 1e6;

    /** A valid request sent {@code delayNanos} after its scheduled time (NaN: it had none). */
    private static RecordMetrics sent(final double delayNanos) {
        return new RecordMetrics(true, 0, 1_000_000_000L, null, 10 * MS, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, null, Double.NaN, 30, 5, 5, -1, delayNanos, -1, -1, -1, -1, -1, -1, -1, 0, Double.NaN,
                Double.NaN);
    }

    private static RecordMetrics failed(final double delayNanos) {
        return new RecordMetrics(false, 0, 1_000_000_000L, null, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, null, Double.NaN, 30, -1, -1, -1, delayNanos, -1, -1, -1, -1, -1, -1, -1, 0, Double.NaN,
                Double.NaN);
    }

    private static Map<String, Double> values(final MetricsSummary s) {
        final Map<String, Double> out = new LinkedHashMap<>();
        ReplayScheduleLag.ALL.forEach(spec -> {
            final MetricValue v = s.metrics().get(spec.tag());
            if (v != null) {
                out.put(spec.tag(), v.value());
            }
        });
        return out;
    }

    @Test
    void lagIsAnchoredAtTheLeastLateRequestAndInterpolatedBetweenRanks() {
        try (MetricsAccumulator acc = new MetricsAccumulator(Map.of(), true)) {
            // delays 5, 2, 3, 12 ms: anchored at 2 ms the lags are 0, 1, 3, 10 ms
            acc.add(sent(5 * MS));
            acc.add(sent(2 * MS));
            acc.add(sent(3 * MS));
            acc.add(sent(12 * MS));
            acc.add(sent(Double.NaN)); // a later turn of a session: no scheduled time, not counted
            acc.add(failed(0)); // failed requests are not counted (else the anchor would be 0)
            final Map<String, Double> v = values(acc.summary());
            assertThat(v.keySet()).containsExactly("replay_sched_lag_p50", "replay_sched_lag_p90",
                    "replay_sched_lag_p99", "replay_sched_degraded");
            // ranks q/100 x 3: 1.5 -> 1 + 0.5 x 2; 2.7 -> 3 + 0.7 x 7; 2.97 -> 3 + 0.97 x 7
            assertThat(v.get("replay_sched_lag_p50")).isCloseTo(2.0, within(1e-9));
            assertThat(v.get("replay_sched_lag_p90")).isCloseTo(7.9, within(1e-9));
            assertThat(v.get("replay_sched_lag_p99")).isCloseTo(9.79, within(1e-9));
            assertThat(v.get("replay_sched_degraded")).isEqualTo(0.0);
            assertThat(acc.summary().metrics().get("replay_sched_lag_p50").spec().unit()).isEqualTo("ms");
            assertThat(acc.summary().metrics().get("replay_sched_degraded").spec().unit()).isEqualTo("count");
        }
    }

    @Test
    void degradedOnlyWhenTheP99LagExceedsHalfASecond() {
        try (MetricsAccumulator atThreshold = new MetricsAccumulator(Map.of(), true);
             MetricsAccumulator over = new MetricsAccumulator(Map.of(), true)) {
            // lags 0, 500, 500 ms: p99 is exactly 500, not above it
            atThreshold.add(sent(0));
            atThreshold.add(sent(500 * MS));
            atThreshold.add(sent(500 * MS));
            assertThat(values(atThreshold.summary())).containsEntry("replay_sched_lag_p99", 500.0)
                    .containsEntry("replay_sched_degraded", 0.0);
            // lags 0, 1000 ms: p99 at rank 0.99 is 990 ms
            over.add(sent(0));
            over.add(sent(1000 * MS));
            final Map<String, Double> v = values(over.summary());
            assertThat(v.get("replay_sched_lag_p99")).isCloseTo(990.0, within(1e-9));
            assertThat(v).containsEntry("replay_sched_degraded", 1.0);
        }
    }

    @Test
    void writtenForAFixedScheduleOnlyAndNeverPerTimeslice() {
        try (MetricsAccumulator rate = new MetricsAccumulator(Map.of());
             MetricsAccumulator fixed = new MetricsAccumulator(Map.of(), true);
             MetricsAccumulator noSchedule = new MetricsAccumulator(Map.of(), true)) {
            rate.add(sent(3 * MS)); // a request-rate open loop has intended starts too, but no replayed schedule
            assertThat(values(rate.summary())).isEmpty();
            fixed.add(sent(3 * MS));
            assertThat(values(fixed.summary(1.0))).isEmpty();
            assertThat(values(fixed.summary())).containsEntry("replay_sched_lag_p99", 0.0);
            noSchedule.add(sent(Double.NaN));
            assertThat(values(noSchedule.summary())).isEmpty();
        }
    }

    @Test
    void aSingleValueIsEveryPercentile() {
        assertThat(ReplayScheduleLag.interpolated(new double[] {4.0}, 99)).isEqualTo(4.0);
        assertThat(ReplayScheduleLag.interpolated(new double[] {0, 10}, 50)).isEqualTo(5.0);
    }
}
