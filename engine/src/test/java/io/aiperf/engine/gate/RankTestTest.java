package io.aiperf.engine.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import org.junit.jupiter.api.Test;

/** The rank test on samples whose answer is known by hand or by the normal distribution. */
class RankTestTest {
    @Test
    void separatedSamplesAreSignificantAndIdenticalOnesAreNot() {
        final double[] low = new double[20];
        final double[] high = new double[20];
        for (int i = 0; i < 20; i++) {
            low[i] = i;
            high[i] = 100 + i;
        }
        final RankTest.Result up = RankTest.test(low, high);
        assertThat(up.superiority()).isEqualTo(1.0);
        assertThat(up.pValue()).isLessThan(1e-6);
        assertThat(RankTest.test(high, low).superiority()).isEqualTo(0.0);
        final RankTest.Result same = RankTest.test(low, low.clone());
        assertThat(same.superiority()).isEqualTo(0.5);
        assertThat(same.pValue()).isEqualTo(1.0);
    }

    @Test
    void theUStatisticByHand() {
        // candidate {3, 5} against baseline {1, 4}: pairs won 1+1+0+1 = 3 of 4; U = 3, mean 2, variance 5/3
        final RankTest.Result r = RankTest.test(new double[] {1, 4}, new double[] {3, 5});
        assertThat(r.superiority()).isEqualTo(0.75);
        // z = (|3 - 2| - 0.5) / sqrt(5/3) = 0.3873: two-sided normal p 0.6985
        assertThat(r.pValue()).isCloseTo(0.6985, offset(1e-4));
    }
}
