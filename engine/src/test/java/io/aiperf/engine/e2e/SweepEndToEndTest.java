package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Comma lists and YAML sweeps: one cell per point, each reset, a sweep aggregate with a Pareto set. */
class SweepEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void concurrencyListRunsOneCellPerValue() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(20, 1))) {
            final Path dir = tmp.resolve("sweep");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--concurrency", "1,4", "--request-count", "12", "--isl", "16", "--osl", "4", "--reset-kv-cache",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isZero();
            for (final String cell : new String[] {"concurrency_1", "concurrency_4"}) {
                assertThat(Files.readAllLines(dir.resolve(cell).resolve("profile_export.jsonl"))).hasSize(12);
            }
            assertThat(mock.controlState().resetCount()).isEqualTo(2);
            final JsonNode sweep = Runs.json(dir.resolve("sweep_aggregate/profile_export_aiperf_sweep.json"));
            // upstream 0.13's layout, plus our label per point
            assertThat(sweep.fieldNames()).toIterable().containsExactly("aggregation_type", "num_profile_runs",
                    "num_successful_runs", "failed_runs", "metadata", "per_combination_metrics",
                    "best_configurations", "pareto_optimal");
            assertThat(sweep.path("aggregation_type").asText()).isEqualTo("sweep");
            assertThat(sweep.path("num_profile_runs").asInt()).isEqualTo(2);
            assertThat(sweep.path("num_successful_runs").asInt()).isEqualTo(2);
            assertThat(sweep.path("failed_runs").isArray()).isTrue();
            assertThat(sweep.path("metadata").fieldNames()).toIterable().containsExactly("sweep_parameters",
                    "num_combinations", "sweep_mode", "confidence_level", "num_trials_per_value", "aggregation_type");
            assertThat(sweep.path("metadata").path("num_combinations").asInt()).isEqualTo(2);
            assertThat(sweep.path("per_combination_metrics").get(1).path("parameters").path("concurrency").asInt())
                    .isEqualTo(4);
            assertThat(sweep.path("per_combination_metrics").get(1).path("label").asText()).isEqualTo("concurrency_4");
            assertThat(sweep.path("best_configurations").path("best_throughput").path("parameters").path("concurrency")
                    .asInt()).isEqualTo(4);
            // Without trials a point's metrics are by tag, each with the summary's own statistics.
            final JsonNode one = sweep.path("per_combination_metrics").get(0).path("metrics");
            final JsonNode four = sweep.path("per_combination_metrics").get(1).path("metrics");
            assertThat(one.path("request_latency").fieldNames()).toIterable().containsExactly("mean", "avg", "std",
                    "min", "max", "cv", "ci_low", "ci_high", "unit", "p1", "p5", "p10", "p25", "p50", "p75", "p90",
                    "p95", "p99", "count", "sum");
            assertThat(one.path("request_latency").path("count").asInt()).isEqualTo(12);
            assertThat(one.path("request_throughput").fieldNames()).toIterable().containsExactly("mean", "avg", "std",
                    "min", "max", "cv", "ci_low", "ci_high", "unit");
            assertThat(four.path("request_throughput").path("mean").asDouble())
                    .isGreaterThan(one.path("request_throughput").path("mean").asDouble());
            // Concurrency 4 has the higher throughput, so it is always optimal; concurrency 1 is too exactly when
            // its TTFT p99 is lower (the two are close against a mock that serves in parallel).
            final boolean oneOptimal = one.path("time_to_first_token").path("p99").asDouble()
                    < four.path("time_to_first_token").path("p99").asDouble();
            final java.util.List<Integer> pareto = new java.util.ArrayList<>();
            sweep.path("pareto_optimal").forEach(o -> pareto.add(o.path("concurrency").asInt()));
            assertThat(pareto).isEqualTo(oneOptimal ? java.util.List.of(1, 4) : java.util.List.of(4));
            assertThat(sweep.path("best_configurations").path("best_throughput").path("metric").asDouble())
                    .isEqualTo(four.path("request_throughput").path("avg").asDouble());

            final java.util.List<String> csv = Files.readAllLines(dir.resolve(
                    "sweep_aggregate/profile_export_aiperf_sweep.csv"));
            assertThat(csv.get(0)).startsWith("concurrency,").contains(",request_throughput_mean,"
                    + "request_throughput_std,request_throughput_min,request_throughput_max,request_throughput_cv");
            assertThat(csv.get(1)).startsWith("1,");
            assertThat(csv.get(2)).startsWith("4,");
            assertThat(csv.subList(3, csv.size())).containsSubsequence("", "Best Configurations",
                    "Configuration,concurrency,Metric,Unit", "", "Pareto Optimal Points", "concurrency", "",
                    "Metadata", "Field,Value", "Aggregation Type,sweep", "Sweep Parameters,concurrency",
                    "Number of Combinations,2", "Number of Profile Runs,2", "Number of Successful Runs,2");

            // Each point's trial aggregate, of its one trial, and its summary naming the point as upstream does.
            final JsonNode cellAgg = Runs.json(dir.resolve("aggregate/concurrency_4/profile_export_aiperf_aggregate.json"));
            assertThat(cellAgg.path("metadata").path("single_run").asBoolean()).isTrue();
            assertThat(cellAgg.path("metadata").path("variation_label").asText())
                    .isEqualTo("phases.profiling.concurrency=4");
            assertThat(cellAgg.path("metadata").path("model").asText()).isEqualTo("m");
            assertThat(cellAgg.path("metrics").path("request_throughput_avg").path("mean").asDouble())
                    .isEqualTo(four.path("request_throughput").path("avg").asDouble());
            assertThat(dir.resolve("aggregate/concurrency_1/profile_export_aiperf_aggregate.csv")).exists();
            final JsonNode info = Runs.json(dir.resolve("concurrency_4/profile_export_aiperf.json")).path("run_info");
            assertThat(info.path("variation_label").asText()).isEqualTo("phases.profiling.concurrency=4");
            assertThat(info.path("variation_index").asInt()).isEqualTo(1);
            assertThat(info.path("variation_values").path("phases.profiling.concurrency").asInt()).isEqualTo(4);
            assertThat(info.path("trial").asInt()).isZero();
            assertThat(info.path("run_label").asText()).isEqualTo("run_0001");
            // the id the run's cells share, after benchmark_id as upstream orders it
            final JsonNode otherInfo = Runs.json(dir.resolve("concurrency_1/profile_export_aiperf.json")).path("run_info");
            assertThat(info.path("sweep_id").asText()).matches("[0-9a-f-]{36}")
                    .isEqualTo(otherInfo.path("sweep_id").asText());
            assertThat(info.fieldNames()).toIterable().startsWith("benchmark_id", "sweep_id");
            assertThat(Runs.json(dir.resolve("run_outcome.json")).path("cells").size()).isEqualTo(2);
        }
    }

    @Test
    void yamlZipSweepWithTrialsAndAPerCellGate() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(10, 1))) {
            final Path yaml = tmp.resolve("sweep.yaml");
            final Path dir = tmp.resolve("zip");
            Files.writeString(yaml, """
                    multi_run: {num_runs: 2}
                    sweep:
                      type: zip
                      parameters:
                        phases.profiling.concurrency: [1, 2]
                        isl: [16, 32]
                    benchmark:
                      model: m
                      endpoint: {url: %s, streaming: true}
                      dataset: {osl: 4}
                      phases: [{name: profiling, requests: 6}]
                      artifacts: {dir: %s}
                    """.formatted(mock.url(), dir));
            assertThat(Runs.aiperf("profile", "-f", yaml.toString()).exitCode()).isZero();
            final Path cell = dir.resolve("profile_runs/trial_0002/concurrency_2__isl_32");
            assertThat(Runs.json(cell.resolve("profile_export_aiperf.json")).path("input_sequence_length")
                    .path("avg").asInt()).isEqualTo(32);
            final JsonNode pointAgg = Runs.json(
                    dir.resolve("aggregate/concurrency_1__isl_16/profile_export_aiperf_aggregate.json"));
            assertThat(pointAgg.path("metadata").path("variation_label").asText())
                    .isEqualTo("phases.profiling.concurrency=1, datasets.default.prompts.isl=16");
            assertThat(pointAgg.path("metadata").has("single_run")).isFalse();
            // With trials in rounds upstream keeps the sweep aggregate under aggregate/; a point's metrics are the
            // trial aggregate's <tag>_<stat> keys.
            final JsonNode sweep = Runs.json(dir.resolve("aggregate/sweep_aggregate/profile_export_aiperf_sweep.json"));
            assertThat(sweep.path("num_profile_runs").asInt()).isEqualTo(4);
            assertThat(sweep.path("per_combination_metrics").get(0).path("metrics").path("request_throughput_avg")
                    .fieldNames()).toIterable().containsExactly("mean", "std", "min", "max", "cv", "ci_low", "ci_high",
                    "unit");
            assertThat(dir.resolve("aggregate/sweep_aggregate/profile_export_aiperf_sweep.csv")).exists();
            assertThat(dir.resolve("sweep_aggregate")).doesNotExist();
            final Path rules = tmp.resolve("rules.yaml");
            Files.writeString(rules, "rules:\n  - {metric: input_sequence_length, stat: avg, max: 20, cell: 'concurrency_2*'}\n");
            final Runs.Result gate = Runs.aiperf("gate", "--rules", rules.toString(), "--candidate", dir.toString());
            assertThat(gate.exitCode()).isEqualTo(1);
            final JsonNode result = Runs.json(dir.resolve("gate_result.json")).path("rules");
            assertThat(result.size()).isEqualTo(1);
            assertThat(result.get(0).path("cell").asText()).isEqualTo("concurrency_2__isl_32");
            assertThat(result.get(0).path("candidate_trials").asInt()).isEqualTo(2);
        }
    }

    @Test
    void duplicateAndUnequalSweepValuesAreConfigErrors() throws Exception {
        final Runs.Result dup = Runs.aiperf("profile", "-m", "m", "--concurrency", "2,2", "--artifact-dir",
                tmp.resolve("x").toString());
        assertThat(dup.exitCode()).isEqualTo(2);
        assertThat(dup.err()).contains("duplicate value 2");
        final Runs.Result zip = Runs.aiperf("profile", "-m", "m", "--concurrency", "1,2", "--isl", "8,16,32",
                "--sweep-type", "zip", "--artifact-dir", tmp.resolve("y").toString());
        assertThat(zip.exitCode()).isEqualTo(2);
        assertThat(zip.err()).contains("zip sweep parameters must all have equal length");
    }
}
