package io.aiperf.engine.profile;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.RunDirectory;
import io.aiperf.engine.gate.GateReports;
import io.aiperf.engine.gate.GateResult;
import io.aiperf.engine.gate.GateRulesLoader;
import io.aiperf.engine.gate.GateRunner;
import io.aiperf.engine.gate.RunData;
import io.aiperf.engine.gate.SearchOutcome;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.report.ReportFiles;
import io.aiperf.engine.run.CellResult;
import io.aiperf.engine.run.RunResult;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.sweep.RunAssembler;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * {@code profile --gate}: its rules and baselines checked before any traffic, then the run just made judged.
 *
 * @param rules the gate's rules file
 * @param baselines the runs to compare with; their mean when several
 * @param requireBaseline whether a missing baseline fails the relative rules instead of making them inactive
 */
public record ProfileGate(Path rules, List<Path> baselines, boolean requireBaseline) {
    public ProfileGate {
        baselines = List.copyOf(baselines);
    }

    /** Rules that do not load and baselines that cannot be read stop the run before any traffic. */
    void check() {
        try {
            GateRulesLoader.load(rules);
        } catch (ConfigException e) {
            throw ProfileRefused.invalid("--gate: ", e);
        }
        for (final Path b : baselines) {
            try {
                if (RunData.checkBaseline(b)) {
                    RunData.load(List.of(b));
                }
            } catch (ConfigException | UncheckedIOException e) {
                throw ProfileRefused.invalid("--baseline: ", e);
            }
        }
    }

    /**
     * The candidate is the run just made in {@code dir}, its cells and summaries as the run holds them (nothing of
     * it is read back); only the baselines, which really are on disk, are read. The gate's reports and the report
     * with its verdict go into {@code dir}; a failing gate never removes the exports.
     */
    int judge(final Path dir, final RunResult ran, final ExportNames names) {
        try {
            final List<CellOutcome> outcomes = ran.cells().stream().map(CellResult::outcome).toList();
            final Function<CellOutcome, CellSummary> summaries = RunAssembler.inMemory(ran.cells());
            final RunData candidate = RunData.of(dir, outcomes, summaries, ran.search() == null ? null
                    : SearchOutcome.of(ran.search(), dir.resolve(SearchOutcome.FILE_NAME).toString()), names);
            final GateResult result = GateRunner.run(rules, baselines, candidate, dir, dir, System.out,
                    requireBaseline);
            final List<Path> found = baselines.stream().filter(RunData::hasResults).toList();
            final Path report = ReportFiles.write(dir, "baseline", found, "candidate", outcomes, summaries,
                    GateReports.tree(result, baselines, dir), ran.search(), names);
            RunDirectory.adopt(dir, List.of(report, dir.resolve(ReportFiles.SVG_FILE)));
            return result.exitCode();
        } catch (ConfigException e) {
            System.err.println("error: gate: " + e.getMessage());
            return ExitCode.USAGE;
        }
    }
}
