package io.aiperf.engine.search;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.export.AtomicFiles;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.report.HtmlReport;
import io.aiperf.engine.run.CellContext;
import io.aiperf.engine.run.CellResult;
import io.aiperf.engine.run.CellRunner;
import io.aiperf.engine.run.RunResult;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.SummaryCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.IntFunction;

/**
 * Runs a capacity search (src-docs/capacity.md): asks the {@link Planner} (a bisection or a grid) for a value of the knob, runs that
 * point's trials, each a cell of its own ({@link CellRunner}: own directory, KV-cache reset, warmup, hooks,
 * validity), until {@link PointDecision} decides it against the SLOs or the trial budget is spent, and tells the
 * planner. Only a point that meets the SLOs counts as meeting them. Ends with {@link SearchResult}'s file and table.
 */
public final class CapacitySearch {
    private CapacitySearch() {
    }

    /**
     * @param configAt the cell config at a knob value
     * @return 130 if cancelled, 1 if a point's cell failed, else 0 (whether or not a point met the SLOs)
     */
    public static int run(final SearchSpec spec, final IntFunction<BenchmarkConfig> configAt, final Path dir,
                          final CellContext ctx) throws InterruptedException {
        return runCells(spec, configAt, dir, ctx).exitCode();
    }

    /** As {@link #run}, with every trial's cell result and the search's result. */
    public static RunResult runCells(final SearchSpec spec, final IntFunction<BenchmarkConfig> configAt,
                                     final Path dir, final CellContext ctx) throws InterruptedException {
        final TierPlanner tiered = spec.tiers().isEmpty() ? null
                : new TierPlanner(spec.planner(), spec.min(), spec.max(), spec.maxProbes(), spec.tiers().size());
        final Planner planner = tiered != null ? tiered
                : Planner.of(spec.planner(), spec.min(), spec.max(), spec.maxProbes());
        final List<ProbedPoint> points = new ArrayList<>();
        final List<CellResult> cells = new ArrayList<>();
        int warmup = 0;
        final io.aiperf.engine.run.RunEta eta = new io.aiperf.engine.run.RunEta(ctx.clock());
        for (OptionalInt next = planner.next(); next.isPresent() && !ctx.cancellation().isCancelled();
             next = planner.next()) {
            BenchmarkConfig config = configAt.apply(next.getAsInt());
            if (points.isEmpty() && !config.hasWarmup()) {
                // A server just started answers its first requests slowly (its own start, its caches); measured,
                // that start would be the capacity. The first point warms it, as a sweep's warmup does.
                warmup = warmupRequests(config);
                config = config.withWarmup(warmup);
                ctx.log().log(io.aiperf.engine.log.RunLog.Level.NOTICE, "search: no warmup was asked for; the first "
                        + "point runs " + warmup + " warmup "
                        + "requests first, so that the server's start does not decide the capacity "
                        + "(--warmup-request-count sets one for every point)");
            }
            final ProbedPoint point = probe(spec, points.size() + 1, next.getAsInt(), config, dir, ctx, cells, eta);
            if (point == null) {
                break; // cancelled
            }
            points.add(point);
            SearchHistory.write(dir, spec, points, null); // after every point, as upstream: a stopped search keeps it
            if (tiered != null) {
                tiered.tell(point.value(), point.tiers().stream()
                        .map(t -> t.decision() == ProbedPoint.Decision.MEETS).toList());
            } else {
                planner.tell(point.value(), point.decision() == ProbedPoint.Decision.MEETS);
            }
        }
        final boolean cancelled = ctx.cancellation().isCancelled();
        final SearchResult result = new SearchResult(spec, points, planner.capacity(), planner.lowestMissed(),
                cancelled ? "cancelled" : planner.converged() ? "converged" : "probe_budget_spent",
                tiered == null ? List.of() : tiered.tiers(), warmup);
        result.write(dir.resolve(SearchResult.FILE_NAME));
        SearchHistory.write(dir, spec, points, result.status());
        result.printTable(ctx.out());
        report(dir, cells, result.json(), configAt.apply(spec.min()), ctx);
        final boolean failed = points.stream().anyMatch(p -> p.decision() == ProbedPoint.Decision.FAILED);
        return new RunResult(cancelled ? ExitCode.stopped(ctx.cancellation().terminated()) : failed ? ExitCode.FAILED : ExitCode.OK, cells,
                result.json());
    }

    /** The warmup a search adds before its first point: twice its concurrency, at least 10 requests. */
    static int warmupRequests(final BenchmarkConfig config) {
        final Integer concurrency = config.phases().get(0).concurrency();
        return Math.max(WARMUP_MIN_REQUESTS, 2 * (concurrency == null ? 1 : concurrency));
    }

    private static final int WARMUP_MIN_REQUESTS = 10;

    /**
     * {@code report.html} over every point's cells, from the summaries they returned, with the search's section;
     * one that cannot be drawn is a warning.
     */
    private static void report(final Path dir, final List<CellResult> cells, final JsonNode search,
                               final BenchmarkConfig config, final CellContext ctx) {
        final Map<CellOutcome, CellSummary> summaries = new IdentityHashMap<>();
        cells.forEach(c -> summaries.put(c.outcome(), c.summary()));
        try {
            final Path file = dir.resolve(HtmlReport.FILE);
            AtomicFiles.write(file, HtmlReport.html(dir, cells.stream().map(CellResult::outcome).toList(),
                    summaries::get, search, ExportNames.of(config.artifacts().prefix()))
                    .getBytes(StandardCharsets.UTF_8));
            ctx.out().println("Report: " + file.toAbsolutePath());
        } catch (RuntimeException e) {
            ctx.err().println("warning: no report.html: " + e.getMessage());
        }
    }

    /**
     * One point: trials until it is decided or the budget is spent; null when cancelled.
     *
     * @param cells where each trial's cell result is added, for the report
     * @param eta the search's time left, from the pace of the points before this one and the probe budget
     */
    private static ProbedPoint probe(final SearchSpec spec, final int order, final int value,
                                     final BenchmarkConfig config, final Path dir, final CellContext ctx,
                                     final List<CellResult> cells, final io.aiperf.engine.run.RunEta eta)
            throws InterruptedException {
        final String label = String.format(Locale.ROOT, "%s_%04d", spec.knob(), value);
        final String pointPath = "search/" + label;
        final ExportNames names = ExportNames.of(config.artifacts().prefix());
        final List<Trial> trials = new ArrayList<>();
        final io.aiperf.engine.convergence.TrialSeries series = spec.convergence() == null ? null
                : new io.aiperf.engine.convergence.TrialSeries(spec.convergence(), spec.confidence(), spec.maxTrials());
        ProbedPoint point = null;
        for (int t = 1; t <= spec.maxTrials() && !ctx.cancellation().isCancelled(); t++) {
            final String trialName = String.format(Locale.ROOT, "trial_%04d", t);
            final String path = pointPath + "/" + trialName;
            final CellIdentity identity = new CellIdentity(order - 1, label + "/" + trialName, path, label,
                    Map.of(spec.knob(), value), t, spec.maxTrials(), spec.confidence(),
                    config.multiRun().cooldownSeconds());
            if (ctx.log().consoleLevel().compareTo(io.aiperf.engine.log.RunLog.Level.INFO) <= 0) {
                ctx.err().println("search point " + order + ": " + spec.knob() + " " + value
                        + (t > 1 ? ", trial " + t + " (" + (point.decision() == ProbedPoint.Decision.INVALID
                        ? "the client was short of CPU" : PointDecision.undecided(spec, point) ? "near the SLO"
                        : "not converged yet") + ")" : "") + eta.upTo(order - 1, spec.maxProbes() - (order - 1)));
            }
            final Path cellDir = dir.resolve(path);
            final CellResult result = new CellRunner(config.forShard(), cellDir, ctx, identity).run();
            cells.add(result);
            if (ExitCode.stopped(result.outcome().exitCode())) {
                return null;
            }
            final Trial trial = trial(spec, t, path, result.outcome(), result.summary(),
                    cellDir.resolve(names.recordsJsonl()));
            trials.add(trial);
            if (series != null) {
                series.add(path, trial.summary(), trial.records());
            }
            point = PointDecisions.decide(spec, order, value, pointPath, trials, series);
            if (!PointDecisions.moreTrials(spec, point, series)) {
                break;
            }
        }
        return point;
    }

    /** One trial's numbers from its cell's outcome and summary (null when it wrote none). */
    static Trial trial(final SearchSpec spec, final int number, final String path, final CellOutcome outcome,
                       final CellSummary summary, final Path records) {
        final List<Double> values = new ArrayList<>();
        for (final Sla sla : spec.slas()) {
            values.add(summary == null ? Double.NaN : sla.valueIn(summary));
        }
        final String error = outcome.exitCode() != ExitCode.OK || summary == null
                ? outcome.error() != null ? outcome.error() : "the cell wrote no summary" : null;
        return new Trial(number, path, error, summary == null ? null : summary.validityResult(), List.copyOf(values),
                summary == null ? Double.NaN : summary.stat("request_throughput", SummaryCodec.AVG), records,
                summary != null && summary.warmup() != null,
                summary == null ? Double.NaN : summary.health().wakeupDelayP99Ms(), summary);
    }
}
