package io.aiperf.engine.cli;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.ci.KeyMetrics;
import io.aiperf.engine.ci.RunLabel;
import io.aiperf.engine.ci.TrendChart;
import io.aiperf.engine.export.AtomicFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code aiperf report}: a self-contained {@code report.html} of run directories (cells, Pareto curves, trials,
 * distributions, timelines, hooks, gate), or with {@code --trend} the key metrics of several runs as one SVG chart.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write report.html for a run directory, or for several side by side (a comparison, never "
                + "pooled); or with --trend draw the key metrics of several run directories (oldest first), one "
                + "series per sweep point, as a trend chart (SVG).",
        footerHeading = "%nExamples:%n", footer = {
                "  aiperf report artifacts/run",
                "  aiperf report -o a-vs-b.html artifacts/a artifacts/b",
                "  aiperf report --trend -o trend.svg nightly/2026-11-*"})
public final class ReportCommand implements Callable<Integer> {
    @Option(names = "--trend", description = "Draw the trend of the runs given (SVG) instead of the HTML report.")
    boolean trend;

    @Option(names = "--prefix", paramLabel = "NAME", description = "The export file prefix the runs used. Default: "
            + "profile_export.")
    String prefix;

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Run directories, oldest first. Several without "
            + "--trend are compared side by side, each its own run named by its directory; in a trend each is "
            + "labelled by its profile --label, else its directory's name.")
    List<Path> runs = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Where to write the report. Default: "
            + "report.html in the first DIR (the SVG of --trend: standard output).")
    Path output;

    @Override
    public Integer call() {
        if (!trend) {
            for (final Path run : runs) {
                if (!Files.isDirectory(run)) {
                    System.err.println("error: report: " + run + " is not a directory");
                    return ExitCode.USAGE;
                }
            }
            final Path file = output != null ? output : runs.get(0).resolve(io.aiperf.engine.report.HtmlReport.FILE);
            try {
                AtomicFiles.write(file, io.aiperf.engine.report.HtmlReport.html(runs,
                        io.aiperf.engine.export.ExportNames.of(prefix)).getBytes(StandardCharsets.UTF_8));
            } catch (java.io.UncheckedIOException e) {
                System.err.println("error: report: " + e.getMessage());
                return ExitCode.FAILED;
            }
            warnUnfinished("report", runs);
            System.err.println("Report: " + file.toAbsolutePath());
            return ExitCode.OK;
        }
        final List<TrendChart.Build> builds = new ArrayList<>();
        for (final Path run : runs) {
            if (!Files.isDirectory(run)) {
                System.err.println("error: report: " + run + " is not a directory");
                return ExitCode.USAGE;
            }
        }
        for (final Path run : runs) {
            // A chart has no room for a banner: a run that did not finish is left out, and the console says so.
            final io.aiperf.engine.gate.UnfinishedRuns.Unfinished unfinished =
                    io.aiperf.engine.gate.UnfinishedRuns.find(run);
            if (unfinished != null) {
                System.err.println("warning: report: left out of the trend: "
                        + io.aiperf.engine.report.UnfinishedBanner.line(unfinished));
                continue;
            }
            builds.add(new TrendChart.Build(RunLabel.of(run), KeyMetrics.byPoint(run), null));
        }
        if (builds.isEmpty()) {
            System.err.println("error: report: no finished run to draw: every DIR given is unfinished");
            return ExitCode.USAGE;
        }
        final String svg = TrendChart.svgOfBuilds(builds);
        if (output == null) {
            System.out.print(svg);
        } else {
            AtomicFiles.write(output, svg.getBytes(StandardCharsets.UTF_8));
            System.err.println("Trend chart: " + output.toAbsolutePath());
        }
        return ExitCode.OK;
    }

    /** Said on the console too, besides the page's banner: a killed sweep's report is never read as a complete one. */
    static void warnUnfinished(final String command, final List<Path> runs) {
        io.aiperf.engine.report.UnfinishedBanner.of(runs).forEach(u ->
                System.err.println("warning: " + command + ": " + io.aiperf.engine.report.UnfinishedBanner.line(u)));
    }
}
