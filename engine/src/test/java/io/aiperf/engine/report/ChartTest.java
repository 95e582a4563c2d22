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
        assertThat(NiceAxis.of(0, 591.2).ticks()).containsExactly(0.0, 200.0, 400.0, 600.0);
        assertThat(NiceAxis.of(0, 4441).ticks()).containsExactly(0.0, 1000.0, 2000.0, 3000.0, 4000.0, 5000.0);
        assertThat(NiceAxis.of(1.53, 2.21).step()).isEqualTo(0.2, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(Chart.num(0.30000000000000004)).isEqualTo("0.3");
        assertThat(Chart.num(1500)).isEqualTo("1,500");
        assertThat(Chart.num(-0.0)).isEqualTo("0");
    }

    @Test
    void tickLabelsHaveTheDecimalsTheirStepNeedsSoNoTwoReadTheSame() {
        final NiceAxis narrow = NiceAxis.of(4.991, 5.012);
        assertThat(narrow.step()).isEqualTo(0.005, org.assertj.core.api.Assertions.within(1e-12));
        final List<String> labels = narrow.ticks().stream().map(narrow::label).toList();
        assertThat(labels).doesNotHaveDuplicates().contains("4.990", "5.000", "5.015");
        final NiceAxis big = NiceAxis.of(0, 4441);
        assertThat(big.ticks().stream().map(big::label)).containsExactly("0", "1,000", "2,000", "3,000", "4,000",
                "5,000");
        final NiceAxis share = NiceAxis.of(0, 1);
        assertThat(share.ticks().stream().map(share::label)).containsExactly("0.0", "0.2", "0.4", "0.6", "0.8",
                "1.0");
    }

    @Test
    void aShareAxisRunsFromZeroToOneAndLatencyAxesFromZero() {
        final Chart c = new Chart("cdf", "cdf", "ITL (ms)", "share").share().fit(new double[] {4.99, 5.01},
                new double[] {0, 1});
        c.line(new double[] {4.99, 5.01}, new double[] {0.5, 1}, Chart.PALETTE[0], "cdf-line");
        final String svg = c.svg();
        assertThat(ticks(svg, "y-tick")).containsExactly("0.0", "0.2", "0.4", "0.6", "0.8", "1.0");
        assertThat(ticks(svg, "x-tick")).startsWith("0").doesNotHaveDuplicates();
    }

    @Test
    void pointLabelsNeverOverlapEachOtherOrADot() {
        final Chart c = new Chart("p", "p", "ms", "req/s").fit(new double[] {0, 100}, new double[] {0, 100});
        for (int i = 0; i < 6; i++) { // six points nearly on top of each other, as two runs' equal sweep points are
            c.point(50 + i * 0.2, 50 + i * 0.2, Chart.PALETTE[i % 2], "pt", "concurrency_" + i);
        }
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "class=\"point-label\" x=\"([0-9.]+)\" y=\"([0-9.]+)\"[^>]*>([^<]*)<").matcher(c.svg());
        final List<double[]> boxes = new java.util.ArrayList<>();
        while (m.find()) {
            final double x = Double.parseDouble(m.group(1));
            final double y = Double.parseDouble(m.group(2));
            boxes.add(new double[] {x, y - 10, x + m.group(3).length() * 6.2, y + 2});
        }
        assertThat(boxes).isNotEmpty();
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                final double[] a = boxes.get(i);
                final double[] b = boxes.get(j);
                assertThat(a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]).as("labels %d and %d overlap",
                        i, j).isFalse();
            }
        }
    }

    @Test
    void theYAxisStartsAtZeroAndTimeAtZero() {
        final Chart c = new Chart("t", "t", "s", "r").fit(new double[] {0.47, 9.5}, new double[] {95, 105});
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
