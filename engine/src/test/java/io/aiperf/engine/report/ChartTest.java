package io.aiperf.engine.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.ci.NaturalOrder;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Round axis ticks from zero, categorical sweep points in numeric order, series named on their elements. */
class ChartTest {
    @Test
    void axesHaveRoundTicks() {
        assertThat(Chart.Axis.of(0, 591.2).ticks()).containsExactly(0.0, 200.0, 400.0, 600.0);
        assertThat(Chart.Axis.of(0, 4441).ticks()).containsExactly(0.0, 1000.0, 2000.0, 3000.0, 4000.0, 5000.0);
        assertThat(Chart.Axis.of(1.53, 2.21).step()).isEqualTo(0.2, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(Chart.num(0.30000000000000004)).isEqualTo("0.3");
        assertThat(Chart.num(1500)).isEqualTo("1,500");
        assertThat(Chart.num(-0.0)).isEqualTo("0");
    }

    @Test
    void theYAxisStartsAtZeroAndTimeAtZero() {
        final Chart c = new Chart("t", "t", "s", "r").xFromZero().fit(new double[] {0.47, 9.5}, new double[] {95, 105});
        c.line(new double[] {0.47, 9.5}, new double[] {95, 105}, Chart.PALETTE[0], "l");
        final String svg = c.svg();
        final List<String> xTicks = ticks(svg, "x-tick");
        final List<String> yTicks = ticks(svg, "y-tick");
        assertThat(xTicks.get(0)).isEqualTo("0");
        assertThat(yTicks.get(0)).isEqualTo("0");
        assertThat(yTicks).doesNotContain("-0.47");
    }

    @Test
    void sweepPointsSortNumericallyAndSeriesAreNamed() {
        assertThat(Stream.of("concurrency_10", "concurrency_2", "concurrency_4", "rate_2.5", "rate_10")
                .sorted(NaturalOrder.COMPARATOR)).containsExactly("concurrency_2", "concurrency_4", "concurrency_10",
                "rate_2.5", "rate_10");
        final Chart c = new Chart("c", "c", "point", "v").categories(List.of("a", "b")).fit(new double[0],
                new double[] {1, 2});
        c.series("baseline").point(0, 1, Chart.PALETTE[0], "p", "a");
        c.series("candidate").interval(1, 1, 1.5, 2, Chart.PALETTE[1], "b");
        assertThat(c.svg()).contains("class=\"p\" data-series=\"baseline\"", "class=\"ci-bar\" data-series=\"candidate\"",
                ">a</text>", ">b</text>");
    }

    private static List<String> ticks(final String svg, final String cls) {
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("class=\"" + cls + "\"[^>]*>([^<]*)<")
                .matcher(svg);
        final List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
