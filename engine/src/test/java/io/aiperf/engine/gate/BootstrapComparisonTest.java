package io.aiperf.engine.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.metrics.Stats;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The bootstrap of one-trial gates on samples of known distributions, each drawn from a fixed seed. */
class BootstrapComparisonTest {
    /** Normal values by Box-Muller from a SplittableRandom (nearby seeds of java.util.Random start alike). */
    private static double[] normal(final long seed, final int n, final double mean, final double sd) {
        final java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        return java.util.stream.IntStream.range(0, n).mapToDouble(i -> mean + sd
                * Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble())).toArray();
    }

    private static double[] exponential(final long seed, final int n, final double mean) {
        final SplittableRandom r = new SplittableRandom(seed);
        return java.util.stream.IntStream.range(0, n).mapToDouble(i -> -mean * Math.log(1 - r.nextDouble())).toArray();
    }

    @Test
    void theStatisticOfCountsIsTheExportsStatistic() {
        final double[] v = exponential(1, 201, 10);
        final double[] sorted = v.clone();
        Arrays.sort(sorted);
        final int[] once = new int[sorted.length];
        Arrays.fill(once, 1);
        final Stats stats = Stats.of(v, v.length);
        for (final String p : new String[] {"p1", "p50", "p90", "p95", "p99"}) {
            assertThat(BootstrapComparison.statistic(sorted, once, Double.parseDouble(p.substring(1))))
                    .isCloseTo(stats.get(p), org.assertj.core.data.Offset.offset(1e-9));
        }
        assertThat(BootstrapComparison.statistic(sorted, once, Double.NaN)).isCloseTo(stats.avg(),
                org.assertj.core.data.Offset.offset(1e-9));
        // {1 x 1, 3 x 2, 0 x 3}: the sample 1 2 2 2, median 2, p25 at index 0.75: 1.75
        final int[] counts = {1, 3, 0, 0};
        assertThat(BootstrapComparison.statistic(new double[] {1, 2, 3, 4}, counts, 50)).isEqualTo(2.0);
        assertThat(BootstrapComparison.statistic(new double[] {1, 2, 3, 4}, counts, 25)).isEqualTo(1.75);
        assertThat(BootstrapComparison.statistic(new double[] {1, 2, 3, 4}, counts, Double.NaN)).isEqualTo(7.0 / 4);
    }

    @Test
    void aDoubledExponentialIsADoubledP90WithATightInterval() {
        final BootstrapComparison.Result r = BootstrapComparison.compare(exponential(2, 400, 10),
                exponential(3, 400, 20), "p90", 0.05);
        // p90 of an exponential is ln(10) x its mean: 23.0 against 46.1
        assertThat(r.baseline()).isBetween(18.0, 28.0);
        assertThat(r.candidate()).isBetween(37.0, 56.0);
        assertThat(r.lowPct()).isGreaterThan(40).isLessThan(r.changePct());
        assertThat(r.highPct()).isGreaterThan(r.changePct());
        assertThat(r.pValue()).isEqualTo(2.0 / (r.resamples() + 1)); // no resample shows no change
        assertThat(r.resamples()).isEqualTo(BootstrapComparison.MAX_RESAMPLES);
    }

    @Test
    void samplesOfOneDistributionAreRarelyCalledDifferent() {
        int significant = 0;
        int covered = 0;
        for (int i = 0; i < 40; i++) {
            final BootstrapComparison.Result r = BootstrapComparison.compare(normal(100 + i, 200, 20, 2),
                    normal(200 + i, 200, 20, 2), "avg", 0.05);
            significant += r.significant(0.05) ? 1 : 0;
            covered += r.lowPct() <= 0 && 0 <= r.highPct() ? 1 : 0;
        }
        // a 95% interval: about 2 of 40 miss; 6 would be a sign of a broken interval (binomial p < 0.05)
        assertThat(significant).isLessThanOrEqualTo(5);
        assertThat(covered).isGreaterThanOrEqualTo(35);
    }

    @Test
    void theSameSamplesGiveTheSameAnswer() {
        final double[] a = exponential(4, 150, 10);
        final double[] b = exponential(5, 150, 11);
        assertThat(BootstrapComparison.compare(a, b, "p99", 0.05)).isEqualTo(BootstrapComparison.compare(a, b, "p99", 0.05));
    }

    @Test
    void theEffectSizeIsCohensDOverTheRequests() {
        final BootstrapComparison.Result r = BootstrapComparison.compare(normal(6, 2000, 0, 1), normal(7, 2000, 1, 1),
                "avg", 0.05);
        assertThat(r.effectSize()).isBetween(0.9, 1.1);
        assertThat(BootstrapComparison.compare(normal(8, 50, 10, 1), normal(9, 50, 10, 1), "p50", 0.05).effectSize())
                .isBetween(-0.5, 0.5);
    }

    @Test
    void largeSamplesUseFewerResamplesButNeverFewerThanTheMinimum() {
        final BootstrapComparison.Result r = BootstrapComparison.compare(normal(10, 60_000, 20, 1),
                normal(11, 60_000, 20, 1), "avg", 0.05);
        assertThat(r.resamples()).isLessThan(BootstrapComparison.MAX_RESAMPLES)
                .isGreaterThanOrEqualTo(BootstrapComparison.MIN_RESAMPLES);
    }

    @Test
    void onlyMeansAndPercentilesAndTwoValuesPerSide() {
        assertThat(BootstrapComparison.supports("p99")).isTrue();
        assertThat(BootstrapComparison.supports("avg")).isTrue();
        assertThat(BootstrapComparison.supports("max")).isFalse();
        assertThatThrownBy(() -> BootstrapComparison.compare(new double[] {1, 2}, new double[] {1, 2}, "std", 0.05))
                .hasMessageContaining("std");
        assertThatThrownBy(() -> BootstrapComparison.compare(new double[] {1}, new double[] {1, 2}, "avg", 0.05))
                .hasMessageContaining("2+ values");
    }
}
