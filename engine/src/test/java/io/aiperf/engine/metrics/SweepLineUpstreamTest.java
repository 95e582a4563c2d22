package io.aiperf.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sweep line against upstream AIPerf 0.13.0 itself: its own records of one run, swept here over its window, give
 * the fourteen metrics it wrote for that run, every statistic (parity/sweep-line-upstream-0.13.txt says how it was
 * recorded). Upstream holds epoch nanoseconds in doubles (256 ns apart at today's epoch) and its records give TTFT
 * in milliseconds, so the two agree to about 1e-5, not to the last bit.
 */
class SweepLineUpstreamTest {
    private static final long T0 = 1_796_566_383_000_000_000L;
    private static final String[] STATS = {"avg", "min", "max", "p50", "p90", "p95", "p99", "std"};

    @Test
    void upstreamsRecordsSweptHereGiveUpstreamsValues() throws IOException {
        final SweepLine sweep = new SweepLine();
        final Map<String, double[]> upstream = new LinkedHashMap<>();
        long window = 0;
        long lastEnd = Long.MIN_VALUE;
        try (InputStream in = getClass().getResourceAsStream("/parity/sweep-line-upstream-0.13.txt")) {
            assertThat(in).isNotNull();
            for (final String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                final String[] f = line.split(" ");
                switch (f[0]) {
                    case "window" -> window = Long.parseLong(f[1]);
                    case "request" -> {
                        final long start = T0 + Long.parseLong(f[1]);
                        final long ttft = Long.parseLong(f[2]);
                        final long end = T0 + Long.parseLong(f[3]);
                        sweep.add(start, ttft < 0 ? SweepLine.NONE : start + ttft, end, Integer.parseInt(f[4]),
                                Integer.parseInt(f[5]));
                        lastEnd = Math.max(lastEnd, end);
                    }
                    case "metric" -> {
                        final double[] v = new double[STATS.length];
                        for (int i = 0; i < v.length; i++) {
                            v[i] = Double.parseDouble(f[2 + i]);
                        }
                        upstream.put(f[1], v);
                    }
                    default -> { } // a comment
                }
            }
        }
        assertThat(upstream).hasSize(14);
        // its window holds every request; where exactly does not matter: outside the requests every curve is 0
        final Map<MetricSpec, Stats> ours = sweep.metrics(lastEnd - window, lastEnd);
        assertThat(ours.keySet()).extracting(MetricSpec::tag).containsExactlyElementsOf(upstream.keySet());
        ours.forEach((spec, s) -> {
            final double[] v = upstream.get(spec.tag());
            for (int i = 0; i < STATS.length; i++) {
                assertThat(s.get(STATS[i])).as(spec.tag() + " " + STATS[i])
                        .isCloseTo(v[i], within(2e-5 * Math.max(1, Math.abs(v[i]))));
            }
        });
    }
}
