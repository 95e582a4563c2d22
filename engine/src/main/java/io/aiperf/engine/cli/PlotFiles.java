package io.aiperf.engine.cli;

import io.aiperf.engine.export.AtomicFiles;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.report.HtmlReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** {@code aiperf plot}: the report of runs, in the first run's directory unless an output is named. */
final class PlotFiles {
    private PlotFiles() {
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
