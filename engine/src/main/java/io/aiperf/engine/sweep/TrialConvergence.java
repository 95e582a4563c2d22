package io.aiperf.engine.sweep;

import io.aiperf.engine.config.MultiRunConfig;
import io.aiperf.engine.convergence.ConvergenceSpec;
import io.aiperf.engine.convergence.ConvergenceState;
import io.aiperf.engine.convergence.TrialSeries;
import io.aiperf.engine.export.AtomicFiles;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.run.CellContext;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.ExportFiles;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A run's repeated trials under {@code --convergence-metric} (src-docs/capacity.md, "Convergence"): after each trial,
 * whether the trials converged (then the rest are not run), and at the end {@code convergence.json} and the
 * console's line.
 */
final class TrialConvergence {
    /** Written in the run directory. */
    static final String FILE = ExportFiles.CONVERGENCE_JSON;
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            new com.fasterxml.jackson.databind.ObjectMapper().enable(
                    com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);
    private final TrialSeries series;
    private final ExportNames names;
    private final Path dir;

    TrialConvergence(final ConvergenceSpec spec, final MultiRunConfig multi, final ExportNames names, final Path dir) {
        this.series = new TrialSeries(spec, multi.confidenceLevel(), multi.numRuns());
        this.names = names;
        this.dir = dir;
    }

    /**
     * Adds the trial whose cell is at {@code path} (relative to the run directory); whether they converged.
     *
     * @param summary the summary the trial's cell returned, or null when it wrote none
     */
    boolean converged(final String path, final CellSummary summary, final CellContext ctx) {
        final Path cell = dir.resolve(path).normalize();
        final ConvergenceState state = series.add(path, summary, cell.resolve(names.recordsJsonl()));
        if (ctx.log().consoleLevel().compareTo(io.aiperf.engine.log.RunLog.Level.INFO) <= 0) {
            ctx.err().println("convergence: " + state.detail());
        }
        return state.converged();
    }

    void write(final CellContext ctx) {
        try {
            AtomicFiles.write(dir.resolve(FILE), JSON.writeValueAsBytes(series.json()));
        } catch (IOException e) {
            ctx.err().println("warning: no " + FILE + ": " + e.getMessage());
        }
        final ConvergenceState state = series.state();
        ctx.out().println("Convergence: " + (state == null ? "no trial ran" : state.detail()
                + (state.converged() ? "" : ": not converged")));
    }
}
