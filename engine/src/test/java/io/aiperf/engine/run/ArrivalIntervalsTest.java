package io.aiperf.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.aiperf.engine.config.LoadType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every arrival pattern has mean 1/rate (AIPerf's timing and load docs); spread differs by pattern. */
class ArrivalIntervalsTest {
    @ParameterizedTest
    @EnumSource(value = LoadType.class, names = {"CONSTANT", "POISSON", "GAMMA"})
    void meanIntervalIsOneOverRate(final LoadType type) {
        final ArrivalIntervals a = new ArrivalIntervals(type, 50, 4.0, 42);
        final int n = 200_000;
        double sum = 0;
        double sq = 0;
        for (int i = 0; i < n; i++) {
            final double v = a.nextNanos() / 1e9;
            sum += v;
            sq += v * v;
        }
        final double mean = sum / n;
        final double cv = Math.sqrt(sq / n - mean * mean) / mean;
        assertThat(mean).isCloseTo(0.02, within(0.0005));
        final double expectedCv = switch (type) {
            case CONSTANT -> 0.0;
            case POISSON -> 1.0;
            default -> 0.5; // gamma shape 4: cv = 1/sqrt(4)
        };
        assertThat(cv).isCloseTo(expectedCv, within(0.02));
    }
}
