package io.aiperf.engine.cli;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.export.AtomicFiles;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.report.HtmlReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The report of a run ({@code --auto-plot}, upstream's name, and {@code aiperf plot}): in the artifact directory; a
 * report that cannot be written is a warning, or with {@code --plot-required} fails the run, as upstream's.
 */
final class AutoPlot {
    private AutoPlot() {
    }

    /**
     * After a run that exited {@code exit}: the exit code once its report is judged. Every run draws its own
     * report.html (and says where, or warns that it could not), so this draws nothing again: a report the run could
     * not write fails the run under {@code --plot-required}, as upstream's.
     */
    static int after(final BenchmarkConfig config, final Path dir, final int exit, final RunLog console) {
        if (!config.artifacts().autoPlot() || exit == ExitCode.USAGE
                || java.nio.file.Files.isRegularFile(target(List.of(dir), null))) {
            return exit;
        }
        if (config.artifacts().plotRequired()) {
            console.error("auto-plot failed (--plot-required): the run wrote no " + HtmlReport.FILE);
            return exit == ExitCode.OK ? ExitCode.FAILED : exit;
        }
        return exit; // the run has warned why
    }

    /** Writes the report of {@code runs}; returns why it could not, or null. */
    static String write(final List<Path> runs, final Path output, final String prefix) {
        try {
            AtomicFiles.write(target(runs, output), HtmlReport.html(runs, ExportNames.of(prefix))
                    .getBytes(StandardCharsets.UTF_8));
            return null;
        } catch (java.io.UncheckedIOException | IllegalStateException | IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    static Path target(final List<Path> runs, final Path output) {
        return output != null ? output : runs.get(0).resolve(HtmlReport.FILE);
    }
}
