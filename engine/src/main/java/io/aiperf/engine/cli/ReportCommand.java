package io.aiperf.engine.cli;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.ci.KeyMetrics;
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

/** {@code aiperf report --trend}: the key metrics of several runs (oldest first) as one SVG chart. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Draw the key metrics of several run directories (oldest first) as a trend chart (SVG).")
public final class ReportCommand implements Callable<Integer> {
    @Option(names = "--trend", required = true, description = "Draw the trend of the runs given.")
    boolean trend;

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Run directories, oldest first; each is labelled by its name.")
    List<Path> runs = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Where to write the SVG. Default: standard output.")
    Path output;

    @Override
    public Integer call() {
        final List<TrendChart.Point> points = new ArrayList<>();
        for (final Path run : runs) {
            if (!Files.isDirectory(run)) {
                System.err.println("error: report: " + run + " is not a directory");
                return ExitCode.USAGE;
            }
            points.add(new TrendChart.Point(run.toAbsolutePath().normalize().getFileName().toString(),
                    KeyMetrics.ofRun(run)));
        }
        final String svg = TrendChart.svg(points);
        if (output == null) {
            System.out.print(svg);
        } else {
            AtomicFiles.write(output, svg.getBytes(StandardCharsets.UTF_8));
            System.err.println("Trend chart: " + output.toAbsolutePath());
        }
        return ExitCode.OK;
    }
}
