package io.aiperf.engine.ci;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.search.ProbedPoint;
import io.aiperf.engine.search.SearchResult;
import io.aiperf.engine.search.SearchSpec;
import io.aiperf.engine.search.Sla;
import io.aiperf.engine.search.Trial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a CI step returns and shows of a capacity search, from the search_result.json the search writes. */
class SearchCapacityTest {
    @TempDir
    Path tmp;

    private static ProbedPoint point(final int order, final int value, final ProbedPoint.Decision d) {
        final Trial t = new Trial(1, "search/c/trial_0001", null, "ok", List.of(30.0), 100, Path.of("x"), true, 1);
        return new ProbedPoint(order, value, d, "search/c", "ok", List.of(30.0), 100, List.of(t), List.of(), null);
    }

    @Test
    void theStepReturnsTheCapacityAndItIsAKeyMetricWithItsGateRule() throws Exception {
        final SearchSpec spec = new SearchSpec("concurrency", 1, 16, List.of(Sla.parse("f", "time_to_first_token:p95:lt:45")),
                "bisection", 8, null, 3, 0.95, 0.1, 20);
        final List<ProbedPoint> points = List.of(point(1, 1, ProbedPoint.Decision.MEETS),
                point(2, 16, ProbedPoint.Decision.MISSES), point(3, 8, ProbedPoint.Decision.MEETS),
                point(4, 12, ProbedPoint.Decision.INCONCLUSIVE));
        new SearchResult(spec, points, OptionalInt.of(8), OptionalInt.of(12), "probe_budget_spent")
                .write(tmp.resolve("search_result.json"));
        Files.writeString(tmp.resolve("gate_result.json"), "{\"verdict\": \"failed\", \"rules\": [{\"metric\": "
                + "\"capacity\", \"stat\": \"value\", \"cell\": \"search\", \"status\": \"failed\", \"limit\": "
                + "\"-25% max\", \"message\": \"capacity changed from 16 to 8\"}]}");
        final Map<String, Object> summary = StepSummary.of(1, tmp, false, List.of());
        final Map<?, ?> capacity = (Map<?, ?>) summary.get(StepSummary.CAPACITY);
        assertThat(capacity.get("value")).isEqualTo(8);
        assertThat(capacity.get("high")).as("12 was inconclusive, 16 missed").isEqualTo(15);
        assertThat(capacity.get("nextMissed")).isEqualTo(12);
        assertThat(capacity.get("knob")).isEqualTo("concurrency");
        assertThat(StepSummary.metrics(summary)).containsEntry("capacity", 8.0);
        final List<java.util.LinkedHashMap<String, Object>> rows = Comparison.rows(StepSummary.metrics(summary),
                List.of(Map.of("capacity", 16.0)), (List<java.util.LinkedHashMap<String, Object>>) summary.get(StepSummary.GATE_RULES));
        final Map<String, Object> row = rows.stream().filter(r -> r.get(Comparison.METRIC).equals("capacity")).findFirst()
                .orElseThrow();
        assertThat(row).containsEntry(Comparison.BASELINE, 16.0).containsEntry(Comparison.CANDIDATE, 8.0)
                .containsEntry(Comparison.CHANGE_PCT, -50.0).containsEntry(Comparison.STATUS, "failed")
                .containsEntry(Comparison.UNIT, "concurrency or req/s");
        assertThat(TrendChart.svg(List.of(new TrendChart.Point("#1", Map.of("capacity", 16.0), "#1"),
                new TrendChart.Point("#2", Map.of("capacity", 8.0), "#2")))).contains("capacity");
        assertThat(ArchivePlanner.BASELINE_INCLUDES).as("a capacity gate needs the baseline's search")
                .contains("search_result.json");
        assertThat(ArchivePlanner.BASELINE_INCLUDES).as("a one-trial gate needs the baseline's requests")
                .contains("**/profile_export.jsonl");
    }

    @Test
    void aRunWithoutASearchReturnsNoCapacity() {
        assertThat(StepSummary.of(0, tmp, false, List.of()).get(StepSummary.CAPACITY)).isNull();
    }
}
