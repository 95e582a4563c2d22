package io.aiperf.engine.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.run.CellResult;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.summary.SummaryCodec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run-level files from cells just run: their summaries come from the runs, not read back from disk. */
class RunAssemblerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path tmp;

    @Test
    void trialsAggregateTheSummariesTheirRunsReturned() throws Exception {
        final List<CellResult> results = List.of(trial(1, 10), trial(2, 14)); // no summary file on disk
        final List<CellOutcome> outcomes = results.stream().map(CellResult::outcome).toList();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        final int exit = RunAssembler.assemble(tmp, outcomes, RunAssembler.inMemory(results), false, ExitCode.OK,
                ExportFiles.SUMMARY_JSON, print, print, true, false);
        assertThat(exit).isEqualTo(ExitCode.OK);
        final JsonNode agg = JSON.readTree(tmp.resolve(ExportFiles.AGGREGATE_FOLDER).resolve(TrialAggregator.FILE)
                .toFile());
        assertThat(agg.path("metrics").path("time_to_first_token_avg").path("mean").asDouble()).isEqualTo(12.0);
        assertThat(agg.path("metadata").path("num_successful_runs").asInt()).isEqualTo(2);
    }

    @Test
    void theReportDrawsTheSummariesTheRunsReturned() throws Exception {
        // neither cell_outcome.json nor a summary is on disk: the report can only have drawn them from memory
        final List<CellResult> results = List.of(trial(1, 10), trial(2, 14));
        final List<CellOutcome> outcomes = results.stream().map(CellResult::outcome).toList();
        final PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        RunAssembler.assemble(tmp, outcomes, RunAssembler.inMemory(results), false, ExitCode.OK, ExportFiles.SUMMARY_JSON,
                sink, sink, true, true);
        final String page = Files.readString(tmp.resolve(ExportFiles.REPORT_HTML));
        assertThat(page).contains("<td>run_0001</td><td>completed</td>").contains("<td>run_0002</td><td>completed</td>")
                .contains(">321</td>").contains(">325</td>"); // each trial's TTFT p50
        assertThat(tmp.resolve(ExportFiles.COMPARISON_SVG)).exists();
    }

    @Test
    void aRunOfOneCellWritesItsRunOutcomeAndExitsAsItsCell() throws Exception {
        final CellOutcome bad = new CellOutcome(CellStatus.BAD_INPUT, tmp.toAbsolutePath().toString(), List.of(),
                List.of(), "shard 2/2 has no conversations", 0, 0, 0, CellIdentity.single(), null);
        final PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        final int exit = RunAssembler.assemble(tmp, List.of(bad), RunAssembler.inMemory(List.of(
                new CellResult(bad, null))), false, ExitCode.OK, ExportFiles.SUMMARY_JSON, sink, sink, true, true);
        assertThat(exit).isEqualTo(ExitCode.USAGE);
        final JsonNode run = JSON.readTree(tmp.resolve(ExportFiles.RUN_OUTCOME).toFile());
        assertThat(run.path("status").asText()).isEqualTo("failed");
        assertThat(run.path("exit_code").asInt()).isEqualTo(ExitCode.USAGE);
        assertThat(run.path("cells").get(0).path("status").asText()).isEqualTo("failed");
        assertThat(run.path("cells").get(0).path("exit_code").asInt()).isEqualTo(ExitCode.USAGE);
    }

    @Test
    void cellsThatFailedDifferentlyFailTheRunWithOne() {
        final CellResult ok = trial(1, 10);
        final CellOutcome bad = new CellOutcome(CellStatus.BAD_INPUT, tmp.resolve("b").toString(), List.of(),
                List.of(), "no conversations", 0, 0, 0, new CellIdentity(1, "run_0002", "run_0002", null, Map.of(),
                2, 2, 0.95, 0), null);
        final PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThat(RunAssembler.assemble(tmp, List.of(ok.outcome(), bad), RunAssembler.inMemory(List.of(ok,
                new CellResult(bad, null))), false, ExitCode.OK, ExportFiles.SUMMARY_JSON, sink, sink, true, false))
                .isEqualTo(ExitCode.FAILED);
        assertThat(RunAssembler.assemble(tmp, List.of(ok.outcome()), RunAssembler.inMemory(List.of(ok)), false,
                ExitCode.CANCELLED, ExportFiles.SUMMARY_JSON, sink, sink, true, false)).isEqualTo(ExitCode.CANCELLED);
    }

    /** SIGTERM (a CI system stopping the job) is 143 in run_outcome.json too, between cells or within one. */
    @Test
    void aRunStoppedBySigtermRecords143() throws Exception {
        final CellResult ok = trial(1, 10);
        final PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThat(RunAssembler.assemble(tmp, List.of(ok.outcome()), RunAssembler.inMemory(List.of(ok)), false,
                ExitCode.TERMINATED, ExportFiles.SUMMARY_JSON, sink, sink, true, false)).isEqualTo(ExitCode.TERMINATED);
        JsonNode run = JSON.readTree(tmp.resolve(RunAssembler.RUN_OUTCOME_FILE).toFile());
        assertThat(run.path("status").asText()).isEqualTo("cancelled");
        assertThat(run.path("exit_code").asInt()).isEqualTo(143);
        final CellOutcome stopped = new CellOutcome(CellStatus.TERMINATED, tmp.resolve("b").toString(), List.of(),
                List.of(), "cancelled by the user", 3, 3, 0, new CellIdentity(1, "run_0002", "run_0002", null,
                Map.of(), 2, 2, 0.95, 0), null);
        assertThat(RunAssembler.assemble(tmp, List.of(ok.outcome(), stopped), RunAssembler.inMemory(List.of(ok,
                new CellResult(stopped, null))), false, ExitCode.TERMINATED, ExportFiles.SUMMARY_JSON, sink, sink,
                true, false)).isEqualTo(143);
        run = JSON.readTree(tmp.resolve(RunAssembler.RUN_OUTCOME_FILE).toFile());
        assertThat(run.path("cells").get(1).path("exit_code").asInt()).isEqualTo(143);
        assertThat(run.path("cells").get(1).path("status").asText()).isEqualTo("cancelled");
    }

    @Test
    void cellsRunElsewhereAreReadFromTheirDirectories() throws Exception {
        final List<CellResult> results = List.of(trial(1, 10), trial(2, 14));
        final List<CellOutcome> outcomes = results.stream().map(CellResult::outcome).toList();
        for (final CellResult r : results) {
            final Path dir = Files.createDirectories(Path.of(r.outcome().artifactDir()));
            final ObjectNode s = JSON.createObjectNode();
            s.putObject("time_to_first_token").put("unit", "ms").put("avg", r.summary().stat("time_to_first_token",
                    "avg") + 1);
            Files.writeString(dir.resolve(ExportFiles.SUMMARY_JSON), JSON.writeValueAsString(s));
        }
        final PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        RunAssembler.assemble(tmp, outcomes, false, false, ExportFiles.SUMMARY_JSON, sink, sink, true, false);
        final JsonNode agg = JSON.readTree(tmp.resolve(ExportFiles.AGGREGATE_FOLDER).resolve(TrialAggregator.FILE)
                .toFile());
        assertThat(agg.path("metrics").path("time_to_first_token_avg").path("mean").asDouble()).isEqualTo(13.0);
    }

    /**
     * Upstream 0.13 derives {@code sweep_parameters} and {@code num_combinations} from every point that ran, and
     * leaves out of {@code per_combination_metrics} (and the best and Pareto choices) only a point whose every trial
     * failed: a sweep of concurrency 1, 2 and 4, two trials each, where both trials of 4 failed.
     */
    @Test
    void aPointWhoseEveryTrialFailedStaysInTheSweepsParametersAndCombinations() throws Exception {
        final List<CellResult> results = new java.util.ArrayList<>();
        int index = 0;
        for (int t = 1; t <= 2; t++) {
            for (final int c : new int[] {1, 2, 4}) {
                results.add(sweepCell(index++, c, t, c != 4));
            }
        }
        final List<CellOutcome> outcomes = results.stream().map(CellResult::outcome).toList();
        final PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        RunAssembler.assemble(tmp, outcomes, RunAssembler.inMemory(results), false, ExitCode.OK,
                ExportFiles.SUMMARY_JSON, sink, sink, true, false);
        final JsonNode sweep = JSON.readTree(tmp.resolve(ExportFiles.AGGREGATE_FOLDER).resolve(ExportFiles.SWEEP_FOLDER)
                .resolve(SweepAggregator.FILE).toFile());
        final JsonNode meta = sweep.path("metadata");
        assertThat(meta.path("num_combinations").asInt()).isEqualTo(3);
        assertThat(meta.path("sweep_parameters").toString())
                .isEqualTo("[{\"name\":\"concurrency\",\"values\":[1,2,4]}]");
        assertThat(meta.path("num_trials_per_value").asInt()).isEqualTo(2);
        assertThat(sweep.path("num_profile_runs").asInt()).isEqualTo(6);
        assertThat(sweep.path("num_successful_runs").asInt()).isEqualTo(4);
        assertThat(sweep.path("failed_runs").size()).isEqualTo(2);
        assertThat(sweep.path("per_combination_metrics").size()).as("only points that measured").isEqualTo(2);
        sweep.path("per_combination_metrics").forEach(p -> assertThat(p.path("parameters").path("concurrency").asInt())
                .isNotEqualTo(4));
    }

    /** Trial {@code t} of the sweep point at concurrency {@code c}, with a summary when it measured. */
    private CellResult sweepCell(final int index, final int c, final int t, final boolean measured) {
        final String point = "concurrency_" + c;
        final String run = String.format("run_%04d", t);
        final CellIdentity identity = new CellIdentity(index, point + "/" + run,
                String.format("profile_runs/trial_%04d/%s", t, point), point, Map.of("concurrency", c), t, 2, 0.95,
                0);
        final CellOutcome outcome = new CellOutcome(measured ? CellStatus.COMPLETED : CellStatus.FAILED,
                tmp.resolve(identity.path()).toAbsolutePath().toString(), List.of(), List.of(),
                measured ? null : "all 6 requests failed", 6, measured ? 6 : 0, measured ? 0 : 6, identity, null);
        if (!measured) {
            return new CellResult(outcome, null);
        }
        final ObjectNode s = JSON.createObjectNode();
        s.putObject("request_throughput").put("unit", "requests/sec").put("avg", 10.0 * c + t);
        s.putObject("request_latency").put("unit", "ms").put("avg", 20.0 * c).put("p99", 30.0 * c + t);
        return new CellResult(outcome, SummaryCodec.read(s));
    }

    private CellResult trial(final int n, final double ttftAvg) {
        final String id = String.format("run_%04d", n);
        final CellIdentity identity = new CellIdentity(n - 1, id, id, null, Map.of(), n, 2, 0.95, 0);
        final CellOutcome outcome = new CellOutcome(CellStatus.COMPLETED,
                tmp.resolve(id).toAbsolutePath().toString(), List.of(), List.of(), null, 6, 6, 0, identity, null);
        final ObjectNode s = JSON.createObjectNode();
        s.putObject("time_to_first_token").put("unit", "ms").put("avg", ttftAvg).put("p50", ttftAvg + 311);
        return new CellResult(outcome, SummaryCodec.read(s));
    }
}
