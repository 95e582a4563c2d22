package io.aiperf.engine.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.export.AtomicFiles;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.summary.CellSummary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * Writes a run's {@code report.html} and {@code comparison.svg} (its comparison charts as one image) side by side,
 * from one reading of the runs. Stateless.
 */
public final class ReportFiles {
    /** The comparison charts' file name, next to {@link HtmlReport#FILE}. */
    public static final String SVG_FILE = io.aiperf.engine.ci.ReportCharts.FILE;

    private ReportFiles() {
    }

    /** The report of the run in {@code dir} (with the baselines its gate recorded), written into {@code dir}. */
    public static Path write(final Path dir, final ExportNames names) {
        return write(dir, HtmlReport.data(List.of(dir), names));
    }

    /**
     * The report of the run in {@code dir} whose cells were just run, from their outcomes and summaries in memory,
     * written into {@code dir}.
     *
     * @param summaries each cell's summary, or null when it wrote none
     */
    public static Path write(final Path dir, final List<CellOutcome> cells,
                             final Function<CellOutcome, CellSummary> summaries, final ExportNames names) {
        return write(dir, HtmlReport.data(dir, cells, summaries, null, null, names));
    }

    /**
     * The report of the run in {@code dir} whose cells {@code aiperf aggregate} merged, from their outcomes and
     * summaries, with the gate's result already in {@code dir} if any, written into {@code dir}.
     */
    public static Path writeMerged(final Path dir, final List<CellOutcome> cells,
                                   final Function<CellOutcome, CellSummary> summaries, final ExportNames names) {
        return write(dir, HtmlReport.merged(dir, cells, summaries, names));
    }

    /**
     * The comparison of the baselines (one run) and the candidate, written into {@code dir}.
     *
     * @param gateFile the gate's {@code gate_result.json}, or null
     * @return the report's path
     */
    public static Path write(final Path dir, final String baselineName, final List<Path> baselines,
                             final String candidateName, final Path candidate, final Path gateFile,
                             final ExportNames names) {
        return write(dir, HtmlReport.comparisonData(baselineName, baselines, candidateName, candidate, gateFile, names));
    }

    /**
     * The comparison of the baselines (read from their files) and the candidate whose cells were just run in
     * {@code dir} (from their outcomes, summaries, search and gate's result in memory), written into {@code dir}.
     *
     * @param gate the gate's result as the gate made it
     * @param search the candidate's capacity search, or null
     */
    public static Path write(final Path dir, final String baselineName, final List<Path> baselines,
                             final String candidateName, final List<CellOutcome> cells,
                             final Function<CellOutcome, CellSummary> summaries, final JsonNode gate,
                             final JsonNode search, final ExportNames names) {
        return write(dir, HtmlReport.comparisonData(baselineName, baselines, candidateName, dir, cells, summaries,
                gate, search, names));
    }

    /**
     * The comparison of two runs just made side by side ({@code aiperf compare}), both from their outcomes and
     * summaries in memory, with the gate's result when there is one, written into {@code dir}.
     *
     * @param gate the gate's result as the gate made it, or null
     */
    public static Path write(final Path dir, final String nameA, final Path dirA, final List<CellOutcome> cellsA,
                             final Function<CellOutcome, CellSummary> summariesA, final String nameB, final Path dirB,
                             final List<CellOutcome> cellsB, final Function<CellOutcome, CellSummary> summariesB,
                             final JsonNode gate, final ExportNames names) {
        final ReportData b = ReportData.of(nameB, dirB.toAbsolutePath().normalize(), cellsB, summariesB, gate, null,
                names);
        return write(dir, cellsA.isEmpty() ? b : ReportData.of(nameA, dirA.toAbsolutePath().normalize(), cellsA,
                summariesA, null, null, names).then(b));
    }

    private static Path write(final Path dir, final ReportData data) {
        final Path html = dir.resolve(HtmlReport.FILE);
        AtomicFiles.write(html, HtmlReport.page(data).getBytes(StandardCharsets.UTF_8));
        AtomicFiles.write(dir.resolve(SVG_FILE), ComparisonSvg.svg(data).getBytes(StandardCharsets.UTF_8));
        return html;
    }
}
