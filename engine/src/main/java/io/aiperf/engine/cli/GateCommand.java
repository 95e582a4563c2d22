package io.aiperf.engine.cli;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.gate.GateRunner;
import io.aiperf.engine.profile.ArtifactDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code aiperf gate}: pass, unstable or fail a candidate run against a baseline. */
@Command(name = "gate", mixinStandardHelpOptions = true,
        description = "Compare a candidate run with baseline runs under regression rules; exit 0 passed, 3 unstable, 4 "
                + "inconclusive (a run cannot support a verdict), 1 failed.",
        footerHeading = "%nExamples:%n", footer = {
                "  aiperf gate --rules rules.yaml --candidate runs/new --baseline runs/old",
                "  aiperf gate --rules rules.yaml --candidate new --baseline old1 --baseline old2",
                "  aiperf gate --rules rules.yaml --candidate new --baseline old --output-dir out"})
public final class GateCommand implements Callable<Integer> {
    @Option(names = "--rules", required = true, paramLabel = "FILE", description = "The rules YAML file.")
    Path rules;
    @Option(names = "--baseline", paramLabel = "RUN", description = "Baseline run directory or summary JSON; repeat for the mean of several.")
    List<Path> baselines = new ArrayList<>();
    @Option(names = "--candidate", required = true, paramLabel = "RUN", description = "Candidate run directory or summary JSON.")
    Path candidate;
    @Option(names = "--output-dir", paramLabel = "DIR", description = "Where the reports go. Default: the candidate's directory.")
    Path outputDir;
    @Option(names = "--require-baseline", description = REQUIRE_BASELINE)
    boolean requireBaseline;

    /** The help of --require-baseline, the same for gate, profile --gate and aggregate --gate. */
    static final String REQUIRE_BASELINE = "Fail the relative rules (exit 1) when the baseline is missing or holds no "
            + "results, instead of making them inactive; the message names where it looked. Also: require_baseline: "
            + "true in the rules file.";

    @Override
    public Integer call() {
        return run(rules, baselines, candidate, outputDir, requireBaseline);
    }

    static int run(final Path rules, final List<Path> baselines, final Path candidate, final Path outputDir,
                   final boolean requireBaseline) {
        try {
            final Path out = outputDir != null ? outputDir
                    : Files.isDirectory(candidate) ? candidate : candidate.toAbsolutePath().getParent();
            final String unwritable = ArtifactDirs.unwritable(out);
            if (unwritable != null) {
                System.err.println("error: gate: --output-dir: " + unwritable);
                return ExitCode.USAGE;
            }
            final int exit = GateRunner.run(rules, baselines, candidate, out, System.out, requireBaseline).exitCode();
            final Path report = out.resolve(io.aiperf.engine.report.HtmlReport.FILE);
            if (Files.isDirectory(candidate)) {
                // The report leads with the gate's verdict and draws the baseline beside the candidate (a run of
                // one cell has no report before its gate).
                final List<Path> found = baselines.stream().filter(io.aiperf.engine.gate.RunData::hasResults).toList();
                io.aiperf.engine.report.ReportFiles.write(out, "baseline", found, "candidate", candidate,
                        out.resolve(io.aiperf.engine.gate.GateReports.JSON_FILE),
                        io.aiperf.engine.gate.RunData.exportNames(candidate));
                io.aiperf.engine.export.RunDirectory.adopt(out, List.of(report,
                        out.resolve(io.aiperf.engine.report.ReportFiles.SVG_FILE)));
            }
            return exit;
        } catch (ConfigException e) {
            System.err.println("error: gate: " + e.getMessage());
            return ExitCode.USAGE;
        }
    }
}
