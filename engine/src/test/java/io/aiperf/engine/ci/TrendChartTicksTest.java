package io.aiperf.engine.ci;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The trend chart's y ticks read apart however small the metric (an error rate of a few thousandths of a percent). */
class TrendChartTicksTest {
    @Test
    void ticksHaveTheDecimalsOfTheirStep() {
        for (final double max : new double[] {0.0042, 0.042, 4.2, 42, 4200}) {
            final double step = TrendChart.step(max);
            final List<String> labels = new ArrayList<>();
            for (double v = 0; v <= max + step; v += step) {
                labels.add(TrendChart.tick(v, step));
            }
            assertThat(labels).as("max " + max).doesNotHaveDuplicates();
            assertThat(Double.parseDouble(labels.get(0))).isZero();
        }
        assertThat(TrendChart.tick(0.002, TrendChart.step(0.0042))).isEqualTo("0.002");
        assertThat(TrendChart.tick(2000, TrendChart.step(4200))).isEqualTo("2000");
    }
}
