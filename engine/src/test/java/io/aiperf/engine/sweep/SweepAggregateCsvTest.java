package io.aiperf.engine.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sweep aggregate's CSV twin in upstream 0.13's layout, on a two-axis sweep with trials. */
class SweepAggregateCsvTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static SweepAggregator.Point point(final int concurrency, final int isl, final double throughput,
                                               final double ttftP99) {
        final ObjectNode m = JSON.createObjectNode();
        m.putObject("request_throughput_avg").put("mean", throughput).put("std", 0.5).put("min", throughput - 1)
                .put("max", throughput + 1).put("cv", 0.5 / throughput).put("unit", "requests/sec");
        m.putObject("time_to_first_token_p99").put("mean", ttftP99).put("unit", "ms");
        final Map<String, Object> params = new LinkedHashMap<>();
        params.put("concurrency", concurrency);
        params.put("isl", isl);
        return new SweepAggregator.Point("concurrency_" + concurrency + "__isl_" + isl, params, m,
                SweepPointMetrics.ofAggregate(m));
    }

    @Test
    void aRowPerPointThenTheBestTheParetoSetAndTheMetadata() {
        final ObjectNode agg = SweepAggregator.aggregate(List.of(point(1, 16, 10, 20), point(2, 32, 18, 40)),
                List.of(point(1, 16, 10, 20).parameters(), point(2, 32, 18, 40).parameters()), 4, List.of(), 2, 0.95,
                "repeated");
        final String csv = new String(SweepAggregateCsv.bytes(agg), StandardCharsets.UTF_8);
        assertThat(csv.split("\r\n", -1)).containsExactly(
                "concurrency,isl,request_throughput_avg_mean,request_throughput_avg_std,request_throughput_avg_min,"
                        + "request_throughput_avg_max,request_throughput_avg_cv,time_to_first_token_p99_mean,"
                        + "time_to_first_token_p99_std,time_to_first_token_p99_min,time_to_first_token_p99_max,"
                        + "time_to_first_token_p99_cv",
                "1,16,10.00,0.50,9.00,11.00,0.0500,20.00,,,,",
                "2,32,18.00,0.50,17.00,19.00,0.0278,40.00,,,,",
                "",
                "Best Configurations",
                "Configuration,concurrency,isl,Metric,Unit",
                "Best Throughput,2,32,18.00,requests/sec",
                "Best Latency P99,1,16,20.00,ms",
                "",
                "Pareto Optimal Points",
                "concurrency,isl",
                "1,16",
                "2,32",
                "",
                "Metadata",
                "Field,Value",
                "Aggregation Type,sweep",
                "Sweep Parameters,\"concurrency, isl\"",
                "Number of Combinations,4", // upstream's count: 2 concurrencies x 2 ISLs, though these 2 points ran
                "Number of Profile Runs,4",
                "Number of Successful Runs,4",
                "");
    }
}
