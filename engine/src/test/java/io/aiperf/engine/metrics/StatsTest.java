package io.aiperf.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Percentiles as NumPy's linear default, population std (AIPerf's metrics reference). */
class StatsTest {
    @Test
    void matchesNumpyLinearInterpolation() {
        final double[] v = {15, 20, 35, 40, 50};
        final Stats s = Stats.of(v, v.length);
        assertThat(s.p50()).isEqualTo(35.0);
        assertThat(s.p25()).isEqualTo(20.0);
        assertThat(s.p90()).isCloseTo(46.0, within(1e-9));
        assertThat(s.p99()).isCloseTo(49.6, within(1e-9));
        assertThat(s.p1()).isCloseTo(15.2, within(1e-9));
        assertThat(s.std()).isCloseTo(12.884098, within(1e-6));
        assertThat(s.count()).isEqualTo(5);
        assertThat(s.sum()).isEqualTo(160.0);
    }

    @Test
    void emptyOrNonFiniteIsOmitted() {
        assertThat(Stats.of(new double[] {Double.NaN}, 1)).isNull();
        assertThat(Stats.of(new double[0], 0)).isNull();
        assertThat(Stats.of(new double[] {Double.NaN, 2}, 2).count()).isEqualTo(1);
    }
}
