package io.aiperf.engine.run;

import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.hooks.HookLog;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.time.WallClock;
import java.nio.file.Path;

/**
 * One cell end to end: KV-cache reset, phases with the profiler around profiling, metrics, exports and
 * {@code cell_outcome.json}. Failures of the hooks follow the contract's failure policy; exports are written even
 * when the user cancels, flagged {@code was_cancelled}. It runs the cell's three stages in turn:
 * {@link CellSetup} (dataset, request source, hooks, files), {@link CellExecution} (client, phases, probes, the
 * shard's start) and {@link CellReporting} (exports, console, outcome).
 */
public final class CellRunner {
    private final BenchmarkConfig config;
    private final Path dir;
    private final CellContext ctx;
    private final CellIdentity identity;
    private final HookLog hookLog = new HookLog();
    /** The scrapes' and the clock check's client: the run's TLS and proxy settings. */
    private final ProbeClient probes;

    public CellRunner(final BenchmarkConfig config, final Path artifactDir, final CellContext ctx,
                      final CellIdentity identity) {
        this.config = config;
        this.dir = artifactDir;
        this.ctx = ctx;
        this.identity = identity;
        this.probes = new ProbeClient(config.endpoint().network());
    }

    /** Runs the cell; its outcome is also in {@code cell_outcome.json}, its summary in the summary export. */
    public CellResult run() throws InterruptedException {
        final WallClock wall = new WallClock(ctx.clock());
        final long cpuStartNanos = CellReporting.processCpuNanos();
        final long cellStart = wall.toEpochNanos(ctx.clock().nanoTime());
        hookLog.onRetry(ctx.log()::warning);
        final CellSetup setup = new CellSetup(config, ctx, dir, hookLog, probes);
        final CellExecution execution = new CellExecution(config, ctx, wall, probes);
        final CellReporting reporting = new CellReporting(config, ctx, dir, identity, hookLog);
        setup.openLog(identity);
        final CellSetup.Prepared prepared;
        final CellExecution.Executed executed;
        try {
            prepared = setup.prepare(wall);
            executed = execution.execute(prepared);
        } catch (CellStopped s) {
            final CellOutcome outcome = reporting.finish(s.status(), s.getMessage(), s.sent(), 0, 0,
                    execution.shardRun());
            return new CellResult(outcome, null);
        }
        final CellReporting.Reported r;
        try {
            r = reporting.report(prepared, executed, wall, cellStart, cpuStartNanos);
        } catch (CellStopped s) { // the tokenizer got stuck on the answers
            return new CellResult(reporting.finish(s.status(), s.getMessage(), s.sent(), 0, 0,
                    execution.shardRun()), null);
        }
        return new CellResult(reporting.finish(r.status(), r.error(), executed.sent(), r.valid(), r.errors(),
                execution.shardRun()), r.summary(), r.summaryJson());
    }
}
