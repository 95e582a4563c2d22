package io.aiperf.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Statistics from spilled values are the exact ones, as if every value had stayed in memory. */
class DistributionTest {
    private static void assertSame(final Stats spilled, final Stats exact) {
        assertThat(spilled.count()).isEqualTo(exact.count());
        assertThat(spilled.min()).isEqualTo(exact.min());
        assertThat(spilled.max()).isEqualTo(exact.max());
        for (final double p : Stats.PERCENTILES) {
            final String name = "p" + (int) p;
            assertThat(spilled.get(name)).as(name).isCloseTo(exact.get(name),
                    org.assertj.core.data.Offset.offset(Math.abs(exact.get(name)) * 1e-12 + 1e-12));
        }
        assertThat(spilled.avg()).isCloseTo(exact.avg(), org.assertj.core.data.Offset.offset(Math.abs(exact.avg()) * 1e-9));
        assertThat(spilled.std()).isCloseTo(exact.std(), org.assertj.core.data.Offset.offset(Math.abs(exact.std()) * 1e-9 + 1e-12));
    }

    private static Stats check(final double[] values) {
        try (Distribution spilling = new Distribution(64)) {
            for (final double v : values) {
                spilling.add(v);
            }
            final Stats exact = Stats.of(values, values.length);
            assertSame(spilling.stats(), exact);
            return exact;
        }
    }

    @Test
    void spilledPercentilesAreExactForSkewedHeavyTailedData() {
        final SplittableRandom r = new SplittableRandom(3);
        final double[] v = new double[20_000];
        for (int i = 0; i < v.length; i++) {
            v[i] = Math.exp(r.nextGaussian() * 2) * 1e6 + (i % 7 == 0 ? 0 : 0.5);
        }
        check(v);
    }

    @Test
    void manyEqualValuesZerosAndNegativesAreExactToo() {
        final SplittableRandom r = new SplittableRandom(5);
        final double[] v = new double[5_001];
        for (int i = 0; i < v.length; i++) {
            v[i] = switch (i % 4) {
                case 0 -> 0.0;
                case 1 -> 550;
                case 2 -> -r.nextDouble();
                default -> r.nextInt(1000) / 1e6;
            };
        }
        check(v);
    }

    @Test
    void aSmallDistributionStaysInMemoryAndNonFiniteValuesAreIgnored() {
        try (Distribution d = new Distribution()) {
            d.add(1);
            d.add(Double.NaN);
            d.add(3);
            assertThat(d.count()).isEqualTo(2);
            assertThat(d.stats().p50()).isEqualTo(2.0);
        }
        try (Distribution empty = new Distribution(4)) {
            assertThat(empty.stats()).isNull();
        }
    }
}
