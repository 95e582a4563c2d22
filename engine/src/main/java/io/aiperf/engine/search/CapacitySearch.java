package io.aiperf.engine.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.run.CellContext;
import io.aiperf.engine.run.CellRunner;
import io.aiperf.engine.validity.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.IntFunction;

/**
 * Runs a capacity search (src-docs/capacity.md): asks the {@link BisectionPlanner} for a concurrency, runs that
 * point as a cell of its own ({@link CellRunner}: own directory, KV-cache reset, warmup, hooks, validity), decides
 * it against the SLOs, and tells the planner. A point whose cell failed or whose validity is invalid (a
 * client-limited measurement, say) never counts as meeting them. Ends with {@link SearchResult}'s file and table.
 */
public final class CapacitySearch {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CapacitySearch() {
    }

    /**
     * @param configAt the cell config at a knob value
     * @return 130 if cancelled, 1 if a point's cell failed, else 0 (whether or not a point met the SLOs)
     */
    public static int run(final SearchSpec spec, final IntFunction<BenchmarkConfig> configAt, final Path dir,
                          final CellContext ctx) throws InterruptedException {
        final BisectionPlanner planner = new BisectionPlanner(spec.min(), spec.max(), spec.maxProbes());
        final List<ProbedPoint> points = new ArrayList<>();
        boolean failed = false;
        for (OptionalInt next = planner.next(); next.isPresent(); next = planner.next()) {
            if (ctx.cancellation().isCancelled()) {
                break;
            }
            final int value = next.getAsInt();
            final BenchmarkConfig config = configAt.apply(value);
            final String label = String.format(Locale.ROOT, "%s_%04d", spec.knob(), value);
            final String path = "search/" + label;
            final CellIdentity identity = new CellIdentity(points.size(), label, path, label,
                    Map.of(spec.knob(), value), 1, 1, config.multiRun().confidenceLevel(),
                    config.multiRun().cooldownSeconds());
            if (ctx.log().consoleLevel().compareTo(io.aiperf.engine.log.RunLog.Level.INFO) <= 0) {
                ctx.err().println("search point " + (points.size() + 1) + ": " + spec.knob() + " " + value);
            }
            final CellOutcome outcome = new CellRunner(config.forShard(), dir.resolve(path), ctx, identity).run();
            if (outcome.exitCode() == ExitCode.CANCELLED) {
                break;
            }
            failed |= outcome.exitCode() != ExitCode.OK;
            final ProbedPoint point = decide(spec, points.size() + 1, value, path, outcome,
                    summary(dir.resolve(path).resolve(ExportNames.of(config.artifacts().prefix()).summaryJson()), ctx));
            points.add(point);
            planner.tell(value, point.decision() == ProbedPoint.Decision.MEETS);
        }
        final boolean cancelled = ctx.cancellation().isCancelled();
        final SearchResult result = new SearchResult(spec, points, planner.capacity(), planner.lowestMissed(),
                cancelled ? "cancelled" : planner.converged() ? "converged" : "probe_budget_spent");
        result.write(dir.resolve(SearchResult.FILE_NAME));
        result.printTable(ctx.out());
        return cancelled ? ExitCode.CANCELLED : failed ? ExitCode.FAILED : ExitCode.OK;
    }

    /** The decision on one point: failed, invalid, or whether every SLO is met. */
    static ProbedPoint decide(final SearchSpec spec, final int order, final int value, final String path,
                              final CellOutcome outcome, final JsonNode summary) {
        final List<Double> values = new ArrayList<>();
        for (final Sla sla : spec.slas()) {
            values.add(summary == null ? Double.NaN : sla.valueIn(summary));
        }
        final String validity = summary == null ? null : summary.path("validity").path("result").asText(null);
        final double throughput = summary == null ? Double.NaN
                : summary.path("request_throughput").path("avg").asDouble(Double.NaN);
        if (outcome.exitCode() != ExitCode.OK || summary == null) {
            return new ProbedPoint(order, value, ProbedPoint.Decision.FAILED, path, validity, values, throughput,
                    outcome.error() != null ? outcome.error() : "the cell wrote no summary");
        }
        if (Result.INVALID.wireName().equals(validity)) {
            return new ProbedPoint(order, value, ProbedPoint.Decision.INVALID, path, validity, values, throughput,
                    "validity invalid: the measurement cannot be trusted, so it never counts as meeting the SLOs");
        }
        final List<String> missed = new ArrayList<>();
        for (int i = 0; i < spec.slas().size(); i++) {
            final Sla sla = spec.slas().get(i);
            if (!sla.met(values.get(i))) {
                missed.add(sla.spec() + (Double.isNaN(values.get(i)) ? " (no value)" : " (was "
                        + String.format(Locale.ROOT, "%.2f", values.get(i)) + ")"));
            }
        }
        return missed.isEmpty()
                ? new ProbedPoint(order, value, ProbedPoint.Decision.MEETS, path, validity, values, throughput, null)
                : new ProbedPoint(order, value, ProbedPoint.Decision.MISSES, path, validity, values, throughput,
                        "missed " + String.join(", ", missed));
    }

    private static JsonNode summary(final Path file, final CellContext ctx) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            ctx.log().warning("search: cannot read " + file + ": " + e.getMessage());
            return null;
        }
    }
}
