package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small capacity search writes upstream AIPerf 0.13's {@code search_history.json} beside its own
 * {@code search_result.json}, with upstream's keys, and the two agree point by point.
 */
class SearchHistoryEndToEndTest {
    @TempDir
    Path tmp;

    private static List<String> keys(final JsonNode node) {
        return node.properties().stream().map(Map.Entry::getKey).toList();
    }

    @Test
    void aSearchWritesUpstreamsSearchHistoryBesideItsResult() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(20, 2).withMaxSlots(2))) {
            final Path dir = tmp.resolve("search");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "20",
                    "--osl", "8", "--request-count", "12", "--warmup-request-count", "2", "--tokenizer", "builtin",
                    "--search-space", "concurrency:1,4", "--search-sla", "time_to_first_token:p95:lt:45",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode result = Runs.json(dir.resolve("search_result.json"));
            final JsonNode history = Runs.json(dir.resolve("search_history.json"));
            assertThat(keys(history)).containsExactly("config", "iterations", "best_trials", "boundary_summary",
                    "recipe", "convergence_reason");
            final JsonNode config = history.path("config");
            assertThat(keys(config)).containsExactly("planner", "objectives", "outcome_constraints",
                    "max_iterations", "n_initial_points", "random_seed", "improvement_patience", "plateau_window",
                    "plateau_threshold", "search_space", "sla_filters");
            assertThat(keys(config.path("objectives").get(0))).containsExactly("metric", "stat", "direction",
                    "threshold");
            assertThat(config.path("objectives").get(0).path("direction").asText()).isEqualTo("MAXIMIZE");
            final JsonNode space = config.path("search_space").get(0);
            assertThat(space.path("path").asText()).isEqualTo("phases.profiling.concurrency");
            assertThat(space.path("lo").asDouble()).isEqualTo(1.0);
            assertThat(space.path("hi").asDouble()).isEqualTo(4.0);
            assertThat(space.path("kind").asText()).isEqualTo("int");
            assertThat(config.path("sla_filters").get(0).toString()).isEqualTo(
                    "{\"metric_tag\":\"time_to_first_token\",\"stat\":\"p95\",\"op\":\"lt\",\"threshold\":45.0}");

            final JsonNode points = result.path("points");
            final JsonNode iterations = history.path("iterations");
            assertThat(iterations.size()).isEqualTo(points.size()).isPositive();
            for (int i = 0; i < points.size(); i++) {
                final JsonNode it = iterations.get(i);
                assertThat(keys(it)).containsExactly("iteration_idx", "variation_values", "objective_values",
                        "feasible", "non_monotonic_warning");
                assertThat(it.path("iteration_idx").asInt()).isEqualTo(i);
                assertThat(it.path("variation_values").path("phases.profiling.concurrency").asInt())
                        .isEqualTo(points.get(i).path("concurrency").asInt());
                assertThat(it.path("feasible").asBoolean())
                        .isEqualTo(points.get(i).path("decision").asText().equals("meets"));
            }
            assertThat(history.path("convergence_reason").asText()).isIn("converged", "max_iterations");
            final JsonNode boundary = history.path("boundary_summary");
            assertThat(keys(boundary)).containsExactly("swept_dim_path", "feasible_max", "infeasible_min");
            if (result.path("capacity").isInt()) {
                assertThat(boundary.path("feasible_max").path("value").asInt())
                        .isEqualTo(result.path("capacity").asInt());
                assertThat(keys(history.path("best_trials").get(0))).containsExactly("iteration_idx",
                        "objective_values", "variation_values", "feasible", "feasible_count", "pareto_rank");
            } else {
                assertThat(boundary.path("feasible_max").isNull()).isTrue();
            }
            if (result.path("next_missed").isInt()) {
                assertThat(boundary.path("infeasible_min").path("value").asInt())
                        .isLessThanOrEqualTo(result.path("next_missed").asInt());
            }
        }
    }
}
