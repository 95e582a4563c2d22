package io.aiperf.engine.cli;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.RunDirectory;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.sweep.CellMerger;
import io.aiperf.engine.sweep.RunAssembler;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code aiperf aggregate}: merge cells run apart into one run directory, with the run's aggregates. */
@Command(name = "aggregate", mixinStandardHelpOptions = true,
        description = "Merge cell directories run apart (profile --cell, other machines) into one run with its "
                + "aggregates; optionally gate the result. Exit 0, 1 (a cell failed or the gate failed), 2, 3.",
        footerHeading = "%nExamples:%n", footer = {
                "  aiperf aggregate --output-dir run agent1/run agent2/run",
                "  aiperf aggregate --output-dir run --gate rules.yaml --baseline old agent*/run",
                "  aiperf aggregate --output-dir run --prefix nightly cells/"})
public final class AggregateCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Directories holding cells (searched recursively).")
    List<Path> inputs = new ArrayList<>();

    @Option(names = "--output-dir", required = true, paramLabel = "OUT", description = "The merged run directory.")
    Path outputDir;

    @Option(names = "--prefix", paramLabel = "NAME", description = "The export file prefix the cells used. Default: profile_export.")
    String prefix;

    @Option(names = "--gate", paramLabel = "RULES", description = "Gate the merged run with these rules.")
    Path gateRules;

    @Option(names = "--baseline", paramLabel = "RUN", description = "Baseline run for --gate; repeat for the mean of several.")
    List<Path> baselines = new ArrayList<>();

    @Option(names = "--require-baseline", description = GateCommand.REQUIRE_BASELINE)
    boolean requireBaseline;

    @Override
    public Integer call() {
        final List<CellOutcome> cells;
        final RunDirectory claimed;
        final CellMerger.Plan plan;
        try {
            if (gateRules != null) {
                io.aiperf.engine.gate.GateRulesLoader.load(gateRules);
            }
            refuseUnfinished();
            plan = CellMerger.plan(inputs, outputDir, ExportNames.of(prefix)); // every check before any write
            // A merge into a directory of its own replaces what the last merge wrote there (old cells never mix
            // with new ones); merging cells in place keeps them, they are the input.
            claimed = RunDirectory.claim(outputDir, inPlace() ? List.of() : null);
        } catch (ConfigException | UncheckedIOException e) {
            return stopped(e);
        }
        try (claimed) {
            try {
                cells = plan.write();
            } catch (ConfigException | UncheckedIOException e) {
                return stopped(e);
            }
            System.err.println("merged " + cells.size() + " cell(s) into " + outputDir.toAbsolutePath());
            final int exit = RunAssembler.assemble(outputDir, cells, false, false,
                    ExportNames.of(prefix).summaryJson(), System.out, System.err);
            if (gateRules == null || exit != ExitCode.OK) {
                return exit;
            }
            return GateCommand.run(gateRules, baselines, outputDir, outputDir, requireBaseline);
        }
    }

    /**
     * A run that did not finish (killed, or still writing) has partial cells: merged, they would read as a complete
     * run, and a gate could pass it. A lock in the output folder itself is a killed merge's own, which this merge
     * replaces.
     */
    private void refuseUnfinished() {
        final Path out = outputDir.toAbsolutePath().normalize();
        for (final Path input : inputs) {
            final io.aiperf.engine.gate.UnfinishedRuns.Unfinished u = io.aiperf.engine.gate.UnfinishedRuns.find(input);
            if (u != null && !u.dir().toAbsolutePath().normalize().equals(out)) {
                throw new ConfigException("DIR", u.describe() + " and are never merged; " + u.advice("aggregate"));
            }
        }
    }

    /** One line for a merge that cannot go on: a refused input is a usage error (exit 2), a failed read or write 1. */
    private static int stopped(final RuntimeException e) {
        System.err.println("error: aggregate: " + e.getMessage());
        return e instanceof ConfigException ? ExitCode.USAGE : ExitCode.FAILED;
    }

    /** Whether an input and the output directory overlap (the cells are merged where they lie). */
    private boolean inPlace() {
        final Path out = outputDir.toAbsolutePath().normalize();
        return inputs.stream().map(p -> p.toAbsolutePath().normalize()).anyMatch(p -> p.startsWith(out));
    }
}
