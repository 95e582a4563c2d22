package io.aiperf.engine.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One row per sweep point, the Pareto-optimal ones starred, only the columns some point has. */
class SweepTableTest {
    private static SweepAggregator.Point point(final int c, final double rps, final double p99) {
        final ObjectNode m = new ObjectMapper().createObjectNode();
        m.putObject("request_throughput_avg").put("mean", rps).put("unit", "requests/sec");
        m.putObject("request_latency_p99").put("mean", p99).put("unit", "ms");
        return new SweepAggregator.Point("concurrency" + c, Map.of("concurrency", c), m, m);
    }

    @Test
    void rowsPerPointWithTheParetoStarred() {
        // 4 beats 2 on both; 8 has more throughput at a higher latency: 4 and 8 are optimal, 2 is not.
        final String table = SweepTable.render(List.of(point(2, 10, 90), point(4, 20, 80), point(8, 30, 150)));
        final List<String> lines = table.lines().toList();
        assertThat(lines.get(0)).startsWith("Sweep: 3 points");
        assertThat(lines.get(1)).isEqualTo("  point         req/s  latency p99 ms");
        assertThat(lines.get(2)).isEqualTo("  concurrency2  10.00           90.00");
        assertThat(lines.get(3)).isEqualTo("* concurrency4  20.00           80.00");
        assertThat(lines.get(4)).isEqualTo("* concurrency8  30.00          150.00");
        assertThat(lines).hasSize(5);
    }
}
