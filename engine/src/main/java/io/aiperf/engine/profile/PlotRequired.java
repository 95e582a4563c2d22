package io.aiperf.engine.profile;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.report.HtmlReport;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code --auto-plot} (upstream's name) after a run: every run draws its own report.html (and says where, or warns
 * that it could not), so this draws nothing again; a report the run could not write fails the run under
 * {@code --plot-required}, as upstream's.
 */
final class PlotRequired {
    private PlotRequired() {
    }

    /** The exit code of a run that exited {@code exit}, once its report is judged. */
    static int after(final BenchmarkConfig config, final Path dir, final int exit, final RunLog console) {
        if (!config.artifacts().autoPlot() || exit == ExitCode.USAGE
                || Files.isRegularFile(dir.resolve(HtmlReport.FILE))) {
            return exit;
        }
        if (config.artifacts().plotRequired()) {
            console.error("auto-plot failed (--plot-required): the run wrote no " + HtmlReport.FILE);
            return exit == ExitCode.OK ? ExitCode.FAILED : exit;
        }
        return exit; // the run has warned why
    }
}
