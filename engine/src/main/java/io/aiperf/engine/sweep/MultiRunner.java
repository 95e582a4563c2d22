package io.aiperf.engine.sweep;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.MultiRunConfig;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.run.CellContext;
import io.aiperf.engine.run.CellResult;
import io.aiperf.engine.run.CellRunner;
import io.aiperf.engine.run.RunResult;
import io.aiperf.engine.validity.ValidityDigest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the cells of a configuration (all of them, or those picked with {@code --cell}): each (sweep point, trial)
 * is a full cell of its own (own KV-cache reset), then {@link RunAssembler} writes the run-level files from the
 * cells' results in memory, for a run of one cell too (AIPerf's multi-run and sweep docs).
 */
public final class MultiRunner {
    private MultiRunner() {
    }

    /**
     * @return the exit code: 130 if cancelled, the cells' code when they all share one (a run of one cell exits
     *         as its cell), else 1 if any cell failed, else 0
     * @param cells the cells to run, from {@link CellPlan}; fewer than the plan's makes a partial run (cells to be
     *              merged later with {@code aiperf aggregate}), which writes no aggregates
     */
    public static int run(final BenchmarkConfig config, final List<CellPlan.Cell> cells, final Path dir,
                          final CellContext ctx) throws InterruptedException {
        return run(config, cells, dir, ctx, null);
    }

    /**
     * @param convergence when non-null, the trials stop as soon as they converge ({@code --convergence-metric},
     *                    src-docs/capacity.md): the run's trials are then the most, and {@code convergence.json}
     *                    says which ran and what was reached
     */
    public static int run(final BenchmarkConfig config, final List<CellPlan.Cell> cells, final Path dir,
                          final CellContext ctx, final io.aiperf.engine.convergence.ConvergenceSpec convergence)
            throws InterruptedException {
        return runCells(config, cells, dir, ctx, convergence).exitCode();
    }

    /**
     * As {@link #run(BenchmarkConfig, List, Path, CellContext, io.aiperf.engine.convergence.ConvergenceSpec)}, with
     * the cells' results (for a gate that follows).
     */
    public static RunResult runCells(final BenchmarkConfig config, final List<CellPlan.Cell> cells, final Path dir,
                                     final CellContext ctx,
                                     final io.aiperf.engine.convergence.ConvergenceSpec convergence)
            throws InterruptedException {
        final MultiRunConfig multi = config.multiRun();
        final TrialConvergence converging = convergence == null ? null
                : new TrialConvergence(convergence, multi, ExportNames.of(config.artifacts().prefix()), dir);
        final boolean single = cells.size() == 1 && cells.get(0).identity().path().equals(".");
        final List<CellOutcome> outcomes = new ArrayList<>();
        final List<CellResult> results = new ArrayList<>();
        int lastTrial = -1;
        String lastPoint = null;
        final io.aiperf.engine.run.RunEta eta = new io.aiperf.engine.run.RunEta(ctx.clock());
        for (final CellPlan.Cell cell : cells) {
            if (ctx.cancellation().isCancelled()) {
                break;
            }
            final int trial = cell.identity().trial();
            final String point = cell.identity().variation();
            if (lastTrial != -1 && trial != lastTrial && multi.cooldownSeconds() > 0) {
                cooldown(multi.cooldownSeconds(), ctx);
            } else if (lastTrial != -1 && point != null && !point.equals(lastPoint) && multi.sweepCooldownSeconds() > 0) {
                cooldown(multi.sweepCooldownSeconds(), ctx); // between two sweep points
            }
            lastPoint = point;
            // Warmup runs in the first trial, and in the first cell of every process: its client is cold.
            final boolean dropWarmup = trial > 1 && multi.disableWarmupAfterFirst() && !outcomes.isEmpty();
            lastTrial = trial;
            if (!single && ctx.log().consoleLevel().compareTo(io.aiperf.engine.log.RunLog.Level.INFO) <= 0) {
                ctx.err().println("cell " + (outcomes.size() + 1) + "/" + cells.size() + ": " + cell.identity().id()
                        + eta.before(outcomes.size(), cells.size() - outcomes.size()));
            }
            final CellResult result = new CellRunner(cellConfig(config, cell, dropWarmup).forShard(),
                    dir.resolve(cell.identity().path()).normalize(), ctx, cell.identity()).run();
            final CellOutcome outcome = result.outcome();
            results.add(result);
            outcomes.add(outcome);
            if (ExitCode.stopped(outcome.exitCode())) {
                break;
            }
            if (converging != null && converging.converged(cell.identity().path(), result.summary(), ctx)) {
                break;
            }
        }
        if (converging != null) {
            converging.write(ctx);
        }
        // A run of one cell printed its validity with its summary; it writes the same run-level files as any run.
        if (!single && ctx.log().consoleLevel().compareTo(io.aiperf.engine.log.RunLog.Level.WARNING) <= 0) {
            printValidity(results, "", ctx);
        }
        final boolean partial = cells.size() < CellPlan.of(config).size();
        final RunAssembler.Assembled assembled = RunAssembler.assembleRun(dir, outcomes,
                RunAssembler.inMemory(results), partial, stopCode(ctx),
                ExportNames.of(config.artifacts().prefix()).summaryJson(), ctx.out(), ctx.err(), multi.sweepTable(),
                true);
        return new RunResult(assembled.exitCode(), results, null, assembled.sweep());
    }

    /** The run's exit code for a stop by the user (130 or 143), or 0 when nobody stopped it. */
    static int stopCode(final CellContext ctx) {
        return !ctx.cancellation().isCancelled() ? ExitCode.OK : ExitCode.stopped(ctx.cancellation().terminated());
    }

    /**
     * The cells' validity problems, one line per check for the whole run (each cell printed none), from the
     * checks each cell's summary was written with.
     *
     * @param side put before each cell id ("A " in an A/B comparison, whose sides share ids)
     */
    static void printValidity(final List<CellResult> results, final String side, final CellContext ctx) {
        final List<ValidityDigest.Cell> cells = new ArrayList<>();
        for (final CellResult r : results) {
            if (r.summary() != null) { // a cell that ended before its exports was judged by nothing
                cells.add(new ValidityDigest.Cell(side + r.outcome().cell().id(), r.summary()));
            }
        }
        final List<String> lines = ValidityDigest.lines(cells);
        if (!lines.isEmpty()) {
            ctx.out().println();
            lines.forEach(ctx.out()::println);
        }
    }

    private static BenchmarkConfig cellConfig(final BenchmarkConfig config, final CellPlan.Cell cell,
                                              final boolean dropWarmup) {
        final MultiRunConfig multi = config.multiRun();
        if (cell.variation() == null) {
            return cell.identity().numTrials() == 1 ? config : config.forTrial(
                    TrialSeeds.of(config.randomSeed(), "", cell.identity().trial(), multi.varySeedPerTrial()),
                    dropWarmup);
        }
        final BenchmarkConfig v = cell.variation().config();
        final Long point = v.randomSeed() == null ? null
                : multi.sweepSameSeed() ? v.randomSeed() : v.randomSeed() + cell.variation().index();
        return v.forTrial(TrialSeeds.of(point, cell.variation().label(), cell.identity().trial(),
                multi.varySeedPerTrial()), dropWarmup);
    }

    private static void cooldown(final double seconds, final CellContext ctx) throws InterruptedException {
        final long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end && !ctx.cancellation().isCancelled()) {
            Thread.sleep(Math.min(100, Math.max(1, (end - System.nanoTime()) / 1_000_000L)));
        }
    }
}
