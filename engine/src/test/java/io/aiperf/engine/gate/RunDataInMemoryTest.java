package io.aiperf.engine.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.redact.Redactor;
import io.aiperf.engine.run.CellContext;
import io.aiperf.engine.run.CellResult;
import io.aiperf.engine.run.RunResult;
import io.aiperf.engine.sweep.CellPlan;
import io.aiperf.engine.sweep.MultiRunner;
import io.aiperf.engine.sweep.RunAssembler;
import io.aiperf.engine.time.CancellationToken;
import io.aiperf.engine.time.Clock;
import io.aiperf.engine.time.Sleeper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The candidate of {@code profile --gate} comes from memory ({@link RunData#of}): for a run just made, it holds the
 * same cells, values, summaries and records files as {@link RunData#load} reads from the run's directory.
 */
class RunDataInMemoryTest {
    @TempDir
    Path tmp;

    private static final String BENCHMARK = """
            benchmark:
              model: m
              endpoint: {url: "%s"}
              dataset: {isl: 8, osl: 2, entries: 4}
              phases: [{name: profiling, concurrency: 2, requests: 6}]
            """;

    @Test
    void aSingleCell() throws Exception {
        sameInMemoryAsOnDisk("", "single", List.of(RunData.BASE_CELL), 1);
    }

    @Test
    void threeTrials() throws Exception {
        sameInMemoryAsOnDisk("multi_run: {num_runs: 3, cooldown_seconds: 0}\n", "trials", List.of(RunData.BASE_CELL),
                3);
    }

    @Test
    void aSweepWithTrials() throws Exception {
        sameInMemoryAsOnDisk("multi_run: {num_runs: 2, cooldown_seconds: 0}\n"
                + "sweep: {type: grid, parameters: {concurrency: [1, 2]}}\n", "sweep", null, 2);
    }

    @Test
    void aSweepWithAnExportPrefix() throws Exception {
        final Path dir = tmp.resolve("prefixed");
        final RunResult ran = run("sweep: {type: grid, parameters: {concurrency: [1, 2]}}\n",
                dir, "  artifacts: {prefix: bench}\n");
        final List<CellOutcome> outcomes = ran.cells().stream().map(CellResult::outcome).toList();
        final RunData memory = RunData.of(dir, outcomes, RunAssembler.inMemory(ran.cells()), null,
                ExportNames.of("bench"));
        final RunData disk = RunData.load(List.of(dir));
        assertThat(memory.cells()).hasSize(2).isEqualTo(disk.cells());
        for (final String cell : memory.cells()) {
            assertThat(memory.summaries(cell)).hasSize(1).isEqualTo(disk.summaries(cell));
            assertThat(memory.records(cell)).isEqualTo(disk.records(cell)).allMatch(Files::isRegularFile)
                    .allMatch(f -> f.getFileName().toString().startsWith("bench"));
        }
    }

    @Test
    void theGateAndItsReportJudgeTheCandidateWithoutItsFiles() throws Exception {
        final Path dir = tmp.resolve("gated");
        final RunResult ran = run("multi_run: {num_runs: 2, cooldown_seconds: 0}\n", dir);
        // Nothing of the candidate's cells is left to read back but its records: the gate and the report must
        // judge and draw what the run returned.
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            for (final Path f : files.filter(f -> f.getFileName().toString().equals("profile_export_aiperf.json")
                    || f.getFileName().toString().equals("cell_outcome.json")).toList()) {
                Files.delete(f);
            }
        }
        assertThat(RunData.load(List.of(dir)).summaries(RunData.BASE_CELL)).isEmpty(); // only the trial aggregate
        final List<CellOutcome> outcomes = ran.cells().stream().map(CellResult::outcome).toList();
        final RunData candidate = RunData.of(dir, outcomes, RunAssembler.inMemory(ran.cells()), null,
                ExportNames.of(null));
        final Path rules = tmp.resolve("rules.yaml");
        Files.writeString(rules, "rules:\n  - {metric: request_count, stat: avg, max: 5}\n");
        final GateResult result = GateRunner.run(rules, List.of(), candidate, dir, dir, sink(), false);
        assertThat(result.verdict()).isEqualTo(Status.FAILED); // 6 requests in each trial
        assertThat(result.results()).singleElement().satisfies(r -> assertThat(r.message()).contains("6"));

        final Path page = io.aiperf.engine.report.ReportFiles.write(dir, "baseline", List.of(), "candidate", outcomes,
                RunAssembler.inMemory(ran.cells()), GateReports.tree(result, List.of(), dir), ran.search(),
                ExportNames.of(null));
        final String html = Files.readString(page);
        final int start = html.indexOf("<h2 id=\"cells\">");
        assertThat(start).as(html).isNotNegative();
        final String cells = html.substring(start, html.indexOf("</table>", start));
        // both trials, each with its numbers from its summary (a cell without one shows dashes), and the verdict
        assertThat(cells.split("<tr><td>candidate</td>", -1)).as(cells).hasSize(3);
        assertThat(cells.split("<td>completed</td><td align=\"right\">6</td>", -1)).as(cells).hasSize(3);
        assertThat(html).contains("<h2 id=\"verdict\">Verdict: FAILED</h2>");
    }

    private RunResult run(final String yaml, final Path dir) throws Exception {
        return run(yaml, dir, "");
    }

    /** @param benchmark more of the benchmark section (indented by two) */
    private RunResult run(final String yaml, final Path dir, final String benchmark) throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final BenchmarkConfig config = ConfigLoader.fromYaml(yaml + BENCHMARK.formatted(mock.url()) + benchmark,
                    new CliOverlay());
            final RunResult ran = MultiRunner.runCells(config, CellPlan.of(config), dir, context(), null);
            assertThat(ran.exitCode()).isZero();
            return ran;
        }
    }

    private void sameInMemoryAsOnDisk(final String yaml, final String name, final List<String> expectedCells,
                                      final int trials) throws Exception {
        final Path dir = tmp.resolve(name);
        final RunResult ran = run(yaml, dir);
        final List<CellOutcome> outcomes = ran.cells().stream().map(CellResult::outcome).toList();
        final RunData memory = RunData.of(dir, outcomes, RunAssembler.inMemory(ran.cells()), null, ExportNames.of(null));
        final RunData disk = RunData.load(List.of(dir));

        assertThat(memory.cells()).isEqualTo(disk.cells());
        if (expectedCells != null) {
            assertThat(memory.cells()).isEqualTo(expectedCells);
        } else {
            assertThat(memory.cells()).hasSize(2).allMatch(c -> c.startsWith("concurrency"));
        }
        for (final String cell : memory.cells()) {
            assertThat(memory.summaries(cell)).hasSize(trials).isEqualTo(disk.summaries(cell));
            assertThat(memory.records(cell)).hasSize(trials).isEqualTo(disk.records(cell))
                    .allMatch(Files::isRegularFile);
            for (final String stat : List.of("avg", "p50", "p99")) {
                assertThat(memory.values(cell, "request_latency", stat)).hasSize(trials)
                        .isEqualTo(disk.values(cell, "request_latency", stat));
            }
            assertThat(memory.values(cell, "request_count", "avg")).containsOnly(6.0);
            assertThat(memory.unfinished(cell)).isNull();
        }
        assertThat(memory.searches()).isEqualTo(disk.searches()).isEmpty();
    }

    private static PrintStream sink() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }

    private static CellContext context() {
        final PrintStream sink = sink();
        return new CellContext(sink, sink, false, Clock.SYSTEM, Sleeper.SYSTEM, (u, timeout) -> {
            throw new IOException("no control hooks in this test");
        }, new CancellationToken(), "aiperf profile", Redactor.of(List.of()), new RunLog(sink, RunLog.Level.WARNING));
    }
}
