package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cells by id: a sweep with trials listed by {@code config expand --cells}, run apart with {@code --cell} into two
 * directories (as two CI agents would), and merged by {@code aggregate} into the normal layout with its aggregates.
 */
class CellsEndToEndTest {
    @TempDir
    Path tmp;

    private Path config(final MockServer mock) throws Exception {
        final Path yaml = tmp.resolve("cells.yaml");
        Files.writeString(yaml, """
                multi_run: {num_runs: 2}
                sweep:
                  parameters:
                    phases.profiling.concurrency: [1, 2]
                benchmark:
                  model: m
                  endpoint: {url: %s, streaming: true, reset_kv_cache: true}
                  dataset: {isl: 16, osl: 4}
                  phases: [{name: profiling, requests: 6}]
                """.formatted(mock.url()));
        return yaml;
    }

    @Test
    void cellsRunApartMergeIntoOneRun() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(10, 1))) {
            final Path yaml = config(mock);
            final Runs.Result ids = Runs.aiperf("config", "expand", "-f", yaml.toString(), "--cells");
            assertThat(ids.exitCode()).isZero();
            assertThat(ids.out().lines().toList()).containsExactly("trial_0001/concurrency_1",
                    "trial_0001/concurrency_2", "trial_0002/concurrency_1", "trial_0002/concurrency_2");
            assertThat(Runs.aiperf("config", "expand", "-f", yaml.toString(), "--cells").out()).isEqualTo(ids.out());

            final Path agentA = tmp.resolve("agent-a");
            final Path agentB = tmp.resolve("agent-b");
            assertThat(Runs.aiperf("profile", "-f", yaml.toString(), "--artifact-dir", agentA.toString(),
                    "--cell", "trial_0001/concurrency_1", "--cell", "trial_0002/concurrency_1").exitCode()).isZero();
            assertThat(Runs.aiperf("profile", "-f", yaml.toString(), "--artifact-dir", agentB.toString(),
                    "--cell", "trial_0001/concurrency_2", "--cell", "trial_0002/concurrency_2").exitCode()).isZero();
            assertThat(mock.controlState().resetCount()).isEqualTo(4);
            // A partial run writes its cells and outcome, never an aggregate of half the data.
            assertThat(agentA.resolve("aggregate")).doesNotExist();
            assertThat(Runs.json(agentA.resolve("run_outcome.json")).path("cells").size()).isEqualTo(2);
            final JsonNode cell = Runs.json(agentA.resolve("profile_runs/trial_0002/concurrency_1/cell_outcome.json"));
            assertThat(cell.path("cell").path("id").asText()).isEqualTo("trial_0002/concurrency_1");
            assertThat(cell.path("cell").path("parameters").path("concurrency").asInt()).isEqualTo(1);

            final Path merged = tmp.resolve("merged");
            final Runs.Result agg = Runs.aiperf("aggregate", agentB.toString(), agentA.toString(), "--output-dir",
                    merged.toString());
            assertThat(agg.exitCode()).isZero();
            final JsonNode outcome = Runs.json(merged.resolve("run_outcome.json"));
            assertThat(outcome.path("cells").findValuesAsText("id")).containsExactly("trial_0001/concurrency_1",
                    "trial_0001/concurrency_2", "trial_0002/concurrency_1", "trial_0002/concurrency_2");
            // The merged aggregate is computed from exactly the cells' own summaries.
            final double p50a = ttftP50(merged.resolve("profile_runs/trial_0001/concurrency_2"));
            final double p50b = ttftP50(merged.resolve("profile_runs/trial_0002/concurrency_2"));
            assertThat(p50a).isEqualTo(ttftP50(agentB.resolve("profile_runs/trial_0001/concurrency_2")));
            final JsonNode aggregate = Runs.json(merged.resolve("aggregate/concurrency_2/profile_export_aiperf_aggregate.json"));
            assertThat(aggregate.path("metrics").path("time_to_first_token_p50").path("mean").asDouble())
                    .isCloseTo((p50a + p50b) / 2, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(aggregate.path("metadata").path("num_successful_runs").asInt()).isEqualTo(2);
            final JsonNode sweep = Runs.json(merged.resolve("aggregate/sweep_aggregate/profile_export_aiperf_sweep.json"));
            assertThat(sweep.path("metadata").path("num_combinations").asInt()).isEqualTo(2);
            assertThat(sweep.path("metadata").path("num_trials_per_value").asInt()).isEqualTo(2);
        }
    }

    @Test
    void unknownAndDuplicateCellsAreUsageErrors() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path yaml = config(mock);
            final Runs.Result unknown = Runs.aiperf("profile", "-f", yaml.toString(), "--artifact-dir",
                    tmp.resolve("u").toString(), "--cell", "trial_0009/concurrency_1");
            assertThat(unknown.exitCode()).isEqualTo(2);
            assertThat(unknown.err()).contains("--cell: unknown cell id(s) trial_0009/concurrency_1")
                    .contains("trial_0001/concurrency_1, trial_0001/concurrency_2");
            assertThat(mock.controlState().resetCount()).isZero();
            assertThat(tmp.resolve("u")).doesNotExist();

            final Path a = tmp.resolve("a");
            assertThat(Runs.aiperf("profile", "-f", yaml.toString(), "--artifact-dir", a.toString(), "--cell",
                    "trial_0001/concurrency_1").exitCode()).isZero();
            final Runs.Result twice = Runs.aiperf("aggregate", a.toString(), a.toString(), "--output-dir",
                    tmp.resolve("m").toString());
            assertThat(twice.exitCode()).isEqualTo(2);
            assertThat(twice.err()).contains("cell trial_0001/concurrency_1 appears twice");
            final Runs.Result none = Runs.aiperf("aggregate", tmp.resolve("u").toString(), "--output-dir",
                    tmp.resolve("m").toString());
            assertThat(none.exitCode()).isEqualTo(2);
        }
    }

    private static double ttftP50(final Path cell) throws Exception {
        return Runs.json(cell.resolve("profile_export_aiperf.json")).path("time_to_first_token").path("p50").asDouble();
    }

}
