package io.aiperf.engine.ci;

import io.aiperf.engine.summary.ExportFiles;

/**
 * Where a CI page finds the engine's comparison charts: {@code comparison.svg}, written by the engine beside
 * {@code report.html} with the report's own charts (src-docs/report.md), so a build page shows the same comparison
 * as the report without drawing anything itself.
 */
public final class ReportCharts {
    /** The file's name in a call's export (and archive) folder. */
    public static final String FILE = ExportFiles.COMPARISON_SVG;

    private ReportCharts() {
    }
}
