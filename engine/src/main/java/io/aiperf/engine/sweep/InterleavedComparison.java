package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.run.CellContext;
import io.aiperf.engine.run.CellResult;
import io.aiperf.engine.run.CellRunner;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An interleaved A/B comparison (src-docs/compare.md): pairs of cells against two endpoints in the order A B, B A,
 * A B, ..., each cell with its own KV-cache reset and the same seed on both sides, so drift on a shared machine (a
 * noisy neighbour, thermal throttling, a warming cache) lands on both sides alike instead of on whichever ran
 * second. Each side is an ordinary run with one trial per pair: {@code DIR/a/trial_NNNN}, {@code DIR/b/trial_NNNN}
 * and their aggregates.
 */
public final class InterleavedComparison {
    /** The two sides' directories under the comparison's directory. */
    public static final String A = "a";
    public static final String B = "b";

    private InterleavedComparison() {
    }

    /** The order of the cells: side names, pair by pair (A B, B A, A B, ...). */
    public static List<String> order(final int pairs) {
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < pairs; i++) {
            out.addAll(i % 2 == 0 ? List.of(A, B) : List.of(B, A));
        }
        return out;
    }

    /**
     * A comparison's cells as they ran.
     *
     * @param exitCode 130 if cancelled, 1 if any cell failed, else 0
     * @param a side A's cells, in the order they ran
     * @param b side B's cells, in the order they ran
     */
    public record Compared(int exitCode, List<CellResult> a, List<CellResult> b) {
    }

    public static Compared run(final BenchmarkConfig a, final BenchmarkConfig b, final int pairs, final Path dir,
                          final CellContext ctx) throws InterruptedException {
        final List<CellOutcome> outcomesA = new ArrayList<>();
        final List<CellOutcome> outcomesB = new ArrayList<>();
        final List<CellResult> resultsA = new ArrayList<>();
        final List<CellResult> resultsB = new ArrayList<>();
        final List<String> order = order(pairs);
        final io.aiperf.engine.run.RunEta eta = new io.aiperf.engine.run.RunEta(ctx.clock());
        for (int i = 0; i < order.size() && !ctx.cancellation().isCancelled(); i++) {
            final int trial = i / 2 + 1;
            final String side = order.get(i);
            final BenchmarkConfig config = (side.equals(A) ? a : b).forTrial(a.randomSeed(), false);
            final String id = String.format(Locale.ROOT, "trial_%04d", trial);
            final CellIdentity identity = new CellIdentity(trial - 1, id, id, null, Map.of(), trial, pairs,
                    a.multiRun().confidenceLevel(), 0);
            if (ctx.log().consoleLevel().compareTo(io.aiperf.engine.log.RunLog.Level.INFO) <= 0) {
                ctx.err().println("cell " + (i + 1) + "/" + order.size() + ": " + side.toUpperCase(Locale.ROOT) + " "
                        + id + " (" + String.join(",", config.endpoint().urls()) + ")" + eta.before(i, order.size() - i));
            }
            final CellResult result = new CellRunner(config, dir.resolve(side).resolve(id), ctx, identity).run();
            final CellOutcome outcome = result.outcome();
            (side.equals(A) ? resultsA : resultsB).add(result);
            (side.equals(A) ? outcomesA : outcomesB).add(outcome);
            if (ExitCode.stopped(outcome.exitCode())) {
                break;
            }
        }
        final int stopped = MultiRunner.stopCode(ctx);
        final String summary = ExportNames.of(a.artifacts().prefix()).summaryJson();
        if (ctx.log().consoleLevel().compareTo(io.aiperf.engine.log.RunLog.Level.WARNING) <= 0) {
            MultiRunner.printValidity(resultsA, "A ", ctx);
            MultiRunner.printValidity(resultsB, "B ", ctx);
        }
        final int exitA = RunAssembler.assemble(dir.resolve(A), outcomesA, RunAssembler.inMemory(resultsA), false,
                stopped, summary, ctx.out(), ctx.err(), true, false);
        final int exitB = RunAssembler.assemble(dir.resolve(B), outcomesB, RunAssembler.inMemory(resultsB), false,
                stopped, summary, ctx.out(), ctx.err(), true, false);
        final int exit = ExitCode.stopped(exitA) || ExitCode.stopped(exitB)
                ? ExitCode.stopped(ctx.cancellation().terminated()) : exitA != ExitCode.OK ? exitA : exitB;
        final Compared compared = new Compared(exit, resultsA, resultsB);
        if (!outcomesA.isEmpty() || !outcomesB.isEmpty()) {
            writeReport(dir, compared, null, a.artifacts().prefix(), ctx.out(), ctx.err());
        }
        return compared;
    }

    /**
     * The comparison's one {@code report.html} (and {@code comparison.svg}), A against B side by side (with the gate's
     * result when there is one), from the cells as they ran: nothing is read back. A report that cannot be drawn is
     * a warning, never a failure.
     *
     * @param gate the gate's result as the gate made it, or null
     */
    public static void writeReport(final Path dir, final Compared compared, final JsonNode gate, final String prefix,
                                   final PrintStream out, final PrintStream err) {
        try {
            final Path file = io.aiperf.engine.report.ReportFiles.write(dir, "A", dir.resolve(A),
                    outcomes(compared.a()), RunAssembler.inMemory(compared.a()), "B", dir.resolve(B),
                    outcomes(compared.b()), RunAssembler.inMemory(compared.b()), gate, ExportNames.of(prefix));
            out.println("Report: " + file.toAbsolutePath());
        } catch (RuntimeException e) {
            err.println("warning: no report.html: " + e.getMessage());
        }
    }

    private static List<CellOutcome> outcomes(final List<CellResult> results) {
        return results.stream().map(CellResult::outcome).toList();
    }

}
