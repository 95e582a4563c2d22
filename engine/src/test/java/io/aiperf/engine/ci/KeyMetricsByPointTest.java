package io.aiperf.engine.ci;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key metrics per sweep point from the sweep aggregate in both of upstream's shapes: without trials a point's
 * metrics are by tag ({@code metrics.<tag>.<stat>}) in {@code sweep_aggregate/}; with trials in rounds they are the
 * means of {@code metrics.<tag>_<stat>} in {@code aggregate/sweep_aggregate/}.
 */
class KeyMetricsByPointTest {
    @TempDir
    Path tmp;

    @Test
    void aSweepWithoutTrialsReadsEachMetricByTag() throws Exception {
        final Path run = tmp.resolve("run");
        Files.createDirectories(run.resolve("sweep_aggregate"));
        Files.writeString(run.resolve("sweep_aggregate/profile_export_aiperf_sweep.json"), """
                {"aggregation_type": "sweep", "per_combination_metrics": [
                  {"parameters": {"concurrency": 1}, "label": "concurrency_1", "metrics": {
                    "time_to_first_token": {"mean": 9, "avg": 9, "p50": 7, "p99": 20, "unit": "ms"},
                    "request_throughput": {"mean": 3.5, "avg": 3.5, "unit": "requests/sec"}}},
                  {"parameters": {"concurrency": 2}, "label": "concurrency_2", "metrics": {
                    "time_to_first_token": {"mean": 11, "avg": 11, "p50": 8, "p99": 30, "unit": "ms"}}}]}
                """);
        final Map<String, Map<String, Double>> points = KeyMetrics.byPoint(run);
        assertThat(points.keySet()).containsExactly("concurrency_1", "concurrency_2");
        assertThat(points.get("concurrency_1")).containsEntry("time_to_first_token_p50", 7.0)
                .containsEntry("time_to_first_token_p99", 20.0).containsEntry("request_throughput_avg", 3.5);
        assertThat(points.get("concurrency_2")).containsEntry("time_to_first_token_p99", 30.0)
                .doesNotContainKey("request_throughput_avg");
    }

    @Test
    void aSweepWithTrialsReadsTheMeansUnderAggregate() throws Exception {
        final Path run = tmp.resolve("trials");
        Files.createDirectories(run.resolve("aggregate/sweep_aggregate"));
        Files.writeString(run.resolve("aggregate/sweep_aggregate/profile_export_aiperf_sweep.json"), """
                {"aggregation_type": "sweep", "per_combination_metrics": [
                  {"parameters": {"concurrency": 1}, "label": "concurrency_1", "metrics": {
                    "time_to_first_token_p50": {"mean": 6.5, "std": 1, "unit": "ms"}}}]}
                """);
        assertThat(KeyMetrics.byPoint(run).get("concurrency_1")).containsEntry("time_to_first_token_p50", 6.5);
    }
}
