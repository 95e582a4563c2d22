package io.aiperf.engine.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A sweep's aggregate on hand-made points (AIPerf's sweep docs): its parameters, the best throughput and latency,
 * and the Pareto front of throughput against latency.
 */
class SweepAggregatorTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static SweepAggregator.Point point(final int concurrency, final double throughput, final Double ttftP99,
                                               final double latencyP99) {
        final ObjectNode m = JSON.createObjectNode();
        m.putObject("request_throughput_avg").put("mean", throughput).put("unit", "requests/sec");
        if (ttftP99 != null) {
            m.putObject("time_to_first_token_p99").put("mean", ttftP99).put("unit", "ms");
        }
        m.putObject("request_latency_p99").put("mean", latencyP99).put("unit", "ms");
        final Map<String, Object> params = new LinkedHashMap<>();
        params.put("concurrency", concurrency);
        return new SweepAggregator.Point("concurrency_" + concurrency, params, m, JSON.createObjectNode());
    }

    /** Every point ran (and measured). */
    private static List<Map<String, Object>> ran(final List<SweepAggregator.Point> points) {
        return points.stream().map(SweepAggregator.Point::parameters).toList();
    }

    private static List<Integer> concurrencies(final JsonNode list) {
        final List<Integer> out = new ArrayList<>();
        list.forEach(p -> out.add(p.path("concurrency").asInt()));
        return out;
    }

    @Test
    void theBestPointsAndTheParetoFrontOfThroughputAgainstTtft() {
        // 1: slow and quick; 2: faster, a little slower; 4: fastest, slowest; 8: dominated by 4 (less, later).
        final List<SweepAggregator.Point> points = List.of(point(1, 10, 20.0, 30), point(2, 19, 25.0, 35),
                point(4, 30, 60.0, 70), point(8, 28, 90.0, 100));
        final ObjectNode agg = SweepAggregator.aggregate(points, ran(points), 13,
                List.of(new SweepAggregator.Failed("trial_0003/concurrency_8", "refused")), 3, 0.95, "repeated");
        assertThat(agg.path("aggregation_type").asText()).as("upstream's top level").isEqualTo("sweep");
        assertThat(agg.path("num_profile_runs").asInt()).isEqualTo(13);
        assertThat(agg.path("num_successful_runs").asInt()).isEqualTo(12);
        assertThat(agg.path("failed_runs").get(0).path("label").asText()).isEqualTo("trial_0003/concurrency_8");
        assertThat(agg.path("failed_runs").get(0).path("error").asText()).isEqualTo("refused");
        final JsonNode meta = agg.path("metadata");
        assertThat(meta.path("aggregation_type").asText()).isEqualTo("sweep");
        assertThat(meta.path("sweep_mode").asText()).isEqualTo("repeated");
        assertThat(meta.path("num_combinations").asInt()).isEqualTo(4);
        assertThat(meta.path("num_trials_per_value").asInt()).isEqualTo(3);
        assertThat(meta.path("confidence_level").asDouble()).isEqualTo(0.95);
        assertThat(meta.path("sweep_parameters").get(0).path("name").asText()).isEqualTo("concurrency");
        assertThat(meta.path("sweep_parameters").get(0).path("values").toString()).isEqualTo("[1,2,4,8]");
        assertThat(agg.path("per_combination_metrics").size()).isEqualTo(4);
        assertThat(agg.path("per_combination_metrics").get(1).path("label").asText()).isEqualTo("concurrency_2");

        final JsonNode best = agg.path("best_configurations");
        assertThat(best.path("best_throughput").path("parameters").path("concurrency").asInt()).isEqualTo(4);
        assertThat(best.path("best_throughput").path("metric").asDouble()).as("upstream: the value").isEqualTo(30.0);
        assertThat(best.path("best_throughput").path("unit").asText()).isEqualTo("requests/sec");
        // TTFT p99 is the latency when the points have it (point 1's request latency p99 is 30)
        assertThat(best.path("best_latency_p99").path("parameters").path("concurrency").asInt()).isEqualTo(1);
        assertThat(best.path("best_latency_p99").path("metric").asDouble()).isEqualTo(20.0);
        assertThat(concurrencies(agg.path("pareto_optimal"))).containsExactly(1, 2, 4);
    }

    @Test
    void withoutTtftTheRequestLatencyIsTheLatencyAndTiesDominateNothing() {
        // Non-streamed points: request latency p99 decides. 2 and 3 tie exactly, so neither dominates the other.
        final List<SweepAggregator.Point> points = List.of(point(1, 10, null, 50), point(2, 20, null, 40),
                point(3, 20, null, 40), point(4, 15, null, 45));
        final ObjectNode agg = SweepAggregator.aggregate(points, ran(points), 4, List.of(), 1, 0.95, "repeated");
        assertThat(agg.path("best_configurations").path("best_latency_p99").path("metric").asDouble())
                .as("request latency p99").isEqualTo(40.0);
        assertThat(agg.path("best_configurations").path("best_latency_p99").path("parameters").path("concurrency")
                .asInt()).as("the first of equals").isEqualTo(2);
        assertThat(concurrencies(agg.path("pareto_optimal"))).containsExactly(2, 3);
    }

    @Test
    void aMetricSomePointLacksChoosesNoBestAndNoFront() {
        // upstream 0.13: a best, and the Pareto front, only over a metric every point has
        final ObjectNode empty = JSON.createObjectNode();
        final List<SweepAggregator.Point> points = List.of(
                new SweepAggregator.Point("concurrency_1", Map.of("concurrency", 1), empty, empty),
                point(2, 5, null, 9));
        final ObjectNode agg = SweepAggregator.aggregate(points, ran(points), 2, List.of(), 1, 0.9, "repeated");
        assertThat(agg.path("best_configurations").isEmpty()).as(agg.toString()).isTrue();
        assertThat(agg.path("pareto_optimal").isEmpty()).isTrue();
        assertThat(SweepAggregator.aggregate(List.of(), List.of(), 0, List.of(), 1, 0.9, "repeated")
                .path("best_configurations").isEmpty()).isTrue();
    }

    @Test
    void theCombinationsAreTheProductOfEachParametersValuesAsUpstreamCountsThem() {
        // a zip sweep of two points: upstream 0.13 counts 2 x 2 combinations (its count multiplies the value lists)
        final Map<String, Object> first = new LinkedHashMap<>();
        first.put("concurrency", 1);
        first.put("isl", 8);
        final Map<String, Object> second = new LinkedHashMap<>();
        second.put("concurrency", 2);
        second.put("isl", 16);
        final ObjectNode agg = SweepAggregator.aggregate(List.of(), List.of(first, second), 2, List.of(), 1, 0.95,
                "repeated");
        assertThat(agg.path("metadata").path("num_combinations").asInt()).isEqualTo(4);
        assertThat(agg.path("metadata").path("sweep_parameters").toString()).isEqualTo(
                "[{\"name\":\"concurrency\",\"values\":[1,2]},{\"name\":\"isl\",\"values\":[8,16]}]");
    }
}
