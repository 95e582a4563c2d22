package io.aiperf.engine.cli;

import io.aiperf.engine.ci.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code aiperf plot}, upstream AIPerf's name for drawing a run: here the engine's report ({@code report.html}: its
 * charts of latencies, throughput, timelines and sweeps), written as {@code aiperf report} writes it
 * (src-docs/report.md). Upstream's PNG and dashboard modes are not drawn.
 */
@Command(name = "plot", mixinStandardHelpOptions = true,
        description = "Upstream's name for the report: write report.html (the charts of a run directory, or of "
                + "several side by side) into the first directory, or --output.",
        footerHeading = "%nExamples:%n", footer = {"  aiperf plot artifacts/run", "  aiperf plot -o ab.html a b"})
public final class PlotCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "DIR", description = "Run directories. Default: ./artifacts.")
    List<Path> runs = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Where to write the report. Default: "
            + "report.html in the first DIR.")
    Path output;

    @Option(names = "--prefix", paramLabel = "NAME", description = "The export file prefix the runs used. Default: "
            + "profile_export.")
    String prefix;

    @Override
    public Integer call() {
        final List<Path> dirs = runs.isEmpty() ? List.of(Path.of("artifacts")) : runs;
        for (final Path run : dirs) {
            if (!Files.isDirectory(run)) {
                System.err.println("error: plot: " + run + " is not a directory");
                return ExitCode.USAGE;
            }
        }
        final String failed = PlotFiles.write(dirs, output, prefix);
        if (failed != null) {
            System.err.println("error: plot: " + failed);
            return ExitCode.FAILED;
        }
        ReportCommand.warnUnfinished("plot", dirs);
        System.err.println("Report: " + PlotFiles.target(dirs, output).toAbsolutePath());
        return ExitCode.OK;
    }
}
