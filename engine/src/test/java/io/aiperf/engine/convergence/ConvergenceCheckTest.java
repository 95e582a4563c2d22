package io.aiperf.engine.convergence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConvergenceCheckTest {
    private static final ConvergenceSpec CI = new ConvergenceSpec("time_to_first_token", "avg", "ci_width", 0.10, 3);

    @Test
    void ciWidthIsTheStudentsTIntervalOverTheMean() {
        // mean 100, sample std 1, n 3: t(0.975, 2) = 4.303, width 2 x 4.303 x 1 / sqrt(3) = 4.97
        assertThat(ConvergenceCheck.relativeCiWidth(new double[] {99, 100, 101}, 0.95)).isCloseTo(0.0497,
                within(1e-4));
        final ConvergenceState s = ConvergenceCheck.check(CI, List.of(99.0, 100.0, 101.0), List.of(), 0.95, 5);
        assertThat(s.converged()).isTrue();
        assertThat(s.detail()).contains("0.0497 < 0.1 after 3 of at most 5 trials: converged");
    }

    @Test
    void noStopBeforeTheMinimumOfTrialsEvenWhenStable() {
        final ConvergenceState two = ConvergenceCheck.check(CI, List.of(100.0, 100.0), List.of(), 0.95, 5);
        assertThat(two.reached()).isZero();
        assertThat(two.converged()).isFalse();
        assertThat(two.detail()).contains("at least 3 before a stop");
        // with at most 2 trials the minimum is 2, as upstream's min(3, N)
        assertThat(ConvergenceCheck.check(CI, List.of(100.0, 100.0), List.of(), 0.95, 2).converged()).isTrue();
    }

    @Test
    void aWideSpreadDoesNotConvergeAndMissingValuesAreLeftOut() {
        assertThat(ConvergenceCheck.check(CI, List.of(50.0, 100.0, 150.0), List.of(), 0.95, 5).converged()).isFalse();
        final ConvergenceState s = ConvergenceCheck.check(CI, List.of(Double.NaN, 100.0), List.of(), 0.95, 5);
        assertThat(s.reached()).isNaN();
        assertThat(s.detail()).contains("not measurable yet");
    }

    @Test
    void cvIsTheSampleStandardDeviationOverTheMean() {
        assertThat(ConvergenceCheck.cv(new double[] {9, 10, 11})).isCloseTo(0.1, within(1e-12));
        final ConvergenceSpec cv = new ConvergenceSpec("m", "p99", "cv", 0.05, 3);
        assertThat(ConvergenceCheck.check(cv, List.of(9.0, 10.0, 11.0), List.of(), 0.95, 5).converged()).isFalse();
        assertThat(ConvergenceCheck.check(cv, List.of(9.9, 10.0, 10.1), List.of(), 0.95, 5).converged()).isTrue();
    }

    @Test
    void distributionComparesTheLatestTrialsRequestsWithTheEarlierOnes() {
        final ConvergenceSpec ks = new ConvergenceSpec("m", "avg", "distribution", 0.05, 2);
        final double[] a = new double[200];
        final double[] b = new double[200];
        final double[] far = new double[200];
        for (int i = 0; i < 200; i++) {
            a[i] = i;
            b[i] = i + 0.5;
            far[i] = i + 150;
        }
        assertThat(ConvergenceCheck.check(ks, List.of(1.0, 1.0), List.of(a, b), 0.95, 5).converged()).isTrue();
        final ConvergenceState moved = ConvergenceCheck.check(ks, List.of(1.0, 1.0), List.of(a, far), 0.95, 5);
        assertThat(moved.reached()).isLessThan(1e-6);
        assertThat(moved.converged()).isFalse();
        assertThat(ConvergenceCheck.check(ks, List.of(1.0, 1.0), List.of(a, new double[0]), 0.95, 5).reached())
                .as("a trial without records").isNaN();
    }

    @Test
    void theKolmogorovSmirnovStatisticIsTheLargestGapOfTheDistributionFunctions() {
        assertThat(KolmogorovSmirnov.statistic(new double[] {1, 2, 3, 4}, new double[] {3, 4, 5, 6})).isEqualTo(0.5);
        assertThat(KolmogorovSmirnov.statistic(new double[] {1, 2}, new double[] {1, 2})).isZero();
        // Q(1.36) is the classic 5% point of the Kolmogorov distribution
        assertThat(KolmogorovSmirnov.kolmogorovTail(1.36)).isCloseTo(0.049, within(0.001));
        assertThat(KolmogorovSmirnov.pValue(new double[0], new double[] {1})).isEqualTo(1);
    }

    @Test
    void eachModeHasItsOwnDefaultThreshold() {
        assertThat(ConvergenceSpec.defaultThreshold("ci_width")).isEqualTo(0.10);
        assertThat(ConvergenceSpec.defaultThreshold("cv")).isEqualTo(0.05);
        assertThat(ConvergenceSpec.defaultThreshold("distribution")).isEqualTo(0.05);
    }
}
