package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.config.UpstreamVariation;
import io.aiperf.engine.export.AtomicFiles;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.report.ReportFiles;
import io.aiperf.engine.run.CellResult;
import io.aiperf.engine.run.Version;
import io.aiperf.engine.summary.AggregateCodec;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.summary.RunOutcomeCodec;
import io.aiperf.engine.summary.SummaryCodec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Turns the cells of one run into its run-level files: the per-point trial aggregates, the sweep aggregate and
 * {@code run_outcome.json}. The same code serves cells just run ({@link MultiRunner}) and cells merged from
 * several machines ({@code aiperf aggregate}), so both give the same files. Stateless.
 */
public final class RunAssembler {
    public static final String RUN_OUTCOME_FILE = ExportFiles.RUN_OUTCOME;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunAssembler() {
    }

    /**
     * @param cells the cells' outcomes (each carrying its identity), in any order
     * @param partial true when only some of the run's cells ran here: no aggregates, only the outcome
     * @param summaryName the summary JSON's file name (honours the export prefix)
     * @return the run's exit code: 130 if cancelled, the cells' code when they all share one, else 1 if any cell
     *         failed, else 0
     */
    public static int assemble(final Path dir, final List<CellOutcome> cells, final boolean partial,
                               final boolean cancelled, final String summaryName, final PrintStream out,
                               final PrintStream err) {
        return assemble(dir, cells, partial, cancelled, summaryName, out, err, true, true);
    }

    /**
     * @param sweepTable whether a sweep prints the table of its points ({@code --no-sweep-table} turns it off)
     * @param report whether to write the run's {@code report.html} (a comparison writes one for both runs)
     */
    public static int assemble(final Path dir, final List<CellOutcome> cells, final boolean partial,
                               final boolean cancelled, final String summaryName, final PrintStream out,
                               final PrintStream err, final boolean sweepTable, final boolean report) {
        // cells run elsewhere: their summaries, and a gate's result already in dir, are on disk
        return assemble(dir, cells, fromDisk(summaryName), partial, cancelled ? ExitCode.CANCELLED : ExitCode.OK,
                summaryName, out, err, sweepTable,
                report ? (ordered, summaries, names) -> ReportFiles.writeMerged(dir, ordered, summaries, names)
                        : null).exitCode();
    }

    /**
     * @param summaries each completed cell's summary as its run returned it ({@link #inMemory}): nothing of the
     *                  cells is read back
     * @param stopped {@link ExitCode#CANCELLED} or {@link ExitCode#TERMINATED} when the user stopped the run (a
     *                stop between two cells leaves no cell that says so), else {@link ExitCode#OK}
     */
    public static int assemble(final Path dir, final List<CellOutcome> cells,
                               final Function<CellOutcome, CellSummary> summaries, final boolean partial,
                               final int stopped, final String summaryName, final PrintStream out,
                               final PrintStream err, final boolean sweepTable, final boolean report) {
        return assembleRun(dir, cells, summaries, partial, stopped, summaryName, out, err, sweepTable, report)
                .exitCode();
    }

    /** As {@link #assemble(Path, List, Function, boolean, int, String, PrintStream, PrintStream, boolean,
     * boolean)}, with the sweep aggregate it wrote, for a reader in this process. */
    public static Assembled assembleRun(final Path dir, final List<CellOutcome> cells,
                                        final Function<CellOutcome, CellSummary> summaries, final boolean partial,
                                        final int stopped, final String summaryName, final PrintStream out,
                                        final PrintStream err, final boolean sweepTable, final boolean report) {
        return assemble(dir, cells, summaries, partial, stopped, summaryName, out, err, sweepTable,
                report ? (ordered, s, names) -> ReportFiles.write(dir, ordered, s, names) : null);
    }

    /**
     * A run's files as written.
     *
     * @param sweep the tree the sweep aggregate was written from, or null when the run swept nothing
     */
    public record Assembled(int exitCode, JsonNode sweep) {
    }

    /** Draws a run's report from its cells and their summaries; returns the report's path. */
    private interface ReportWriter {
        Path write(List<CellOutcome> cells, Function<CellOutcome, CellSummary> summaries, ExportNames names);
    }

    private static Assembled assemble(final Path dir, final List<CellOutcome> cells,
                                final Function<CellOutcome, CellSummary> summaries, final boolean partial,
                                final int stopped, final String summaryName, final PrintStream out,
                                final PrintStream err, final boolean sweepTable, final ReportWriter report) {
        final List<CellOutcome> ordered = cells.stream()
                .sorted(Comparator.comparingInt(o -> o.cell().index())).toList();
        JsonNode sweep = null;
        if (!partial && !ordered.isEmpty()) {
            sweep = writeAggregates(dir, ordered, summaries, sweepTable, out, err);
            if (report != null) {
                writeReport(report, ordered, summaries, summaryName, out, err);
            }
        }
        final int exit = exit(ordered, stopped);
        writeRunOutcome(dir, ordered, exit);
        return new Assembled(exit, sweep);
    }

    /** 143 if a cell was stopped by SIGTERM, 130 if cancelled; the cells' exit code when they all share one (a run of one cell exits as its cell); else 1 if any cell failed, else 0. */
    private static int exit(final List<CellOutcome> cells, final int stopped) {
        final Set<Integer> codes = cells.stream().map(CellOutcome::exitCode).collect(Collectors.toSet());
        if (stopped == ExitCode.TERMINATED || codes.contains(ExitCode.TERMINATED)) {
            return ExitCode.TERMINATED;
        }
        if (stopped == ExitCode.CANCELLED || codes.contains(ExitCode.CANCELLED)) {
            return ExitCode.CANCELLED;
        }
        if (codes.size() == 1) {
            return codes.iterator().next();
        }
        return codes.stream().anyMatch(c -> c != ExitCode.OK) ? ExitCode.FAILED : ExitCode.OK;
    }

    /** The summaries of cells just run, as their runs returned them: no file is read back. */
    public static Function<CellOutcome, CellSummary> inMemory(final List<CellResult> results) {
        final Map<String, CellSummary> byDir = new HashMap<>();
        results.forEach(r -> byDir.put(r.outcome().artifactDir(), r.summary()));
        return o -> byDir.get(o.artifactDir());
    }

    /** The summaries of cells run elsewhere, read from each cell's directory; null where none can be read. */
    public static Function<CellOutcome, CellSummary> fromDisk(final String summaryName) {
        final Map<String, CellSummary> read = new HashMap<>(); // the aggregates and the report read each file once
        return o -> read.computeIfAbsent(o.artifactDir(), d -> {
            final Path summary = Path.of(d).resolve(summaryName);
            if (!Files.isRegularFile(summary)) {
                return null;
            }
            try {
                return SummaryCodec.read(summary);
            } catch (IOException e) {
                return null;
            }
        });
    }

    /**
     * Writes the trial aggregates (one per sweep point, one-trial points included, as upstream 0.13 does) and the
     * sweep aggregate with its CSV; returns the sweep aggregate, or null. Where they go follows upstream: a point's
     * under {@code aggregate/<point>/} ({@code <point>/aggregate/} when each point ran its trials in a row), the
     * sweep's under {@code sweep_aggregate/} ({@code aggregate/sweep_aggregate/} with trials run in rounds).
     */
    private static JsonNode writeAggregates(final Path dir, final List<CellOutcome> cells,
                                        final Function<CellOutcome, CellSummary> summaries, final boolean sweepTable,
                                        final PrintStream out, final PrintStream err) {
        final CellIdentity first = cells.get(0).cell();
        final Map<String, List<CellOutcome>> byPoint = new LinkedHashMap<>();
        cells.forEach(o -> byPoint.computeIfAbsent(String.valueOf(o.cell().variation()), k -> new ArrayList<>()).add(o));
        final boolean sweep = first.variation() != null;
        if (!sweep && first.numTrials() == 1) {
            return null;
        }
        final String mode = sweepMode(cells);
        final List<SweepAggregator.Point> points = new ArrayList<>();
        final List<SweepAggregator.Point> table = new ArrayList<>(); // every point: one that measured nothing shows as -
        final List<SweepAggregator.Failed> failed = new ArrayList<>();
        for (final List<CellOutcome> point : byPoint.values()) {
            final List<TrialAggregator.Trial> trials = point.stream().map(o -> trial(o, summaries)).toList();
            trials.stream().filter(t -> t.summary() == null)
                    .forEach(t -> failed.add(new SweepAggregator.Failed(t.label(), t.error())));
            final CellIdentity id = point.get(0).cell();
            final Path aggDir = !sweep ? dir.resolve(ExportFiles.AGGREGATE_FOLDER)
                    : mode.equals(AggregateCodec.MODE_INDEPENDENT)
                    ? dir.resolve(id.variation()).resolve(ExportFiles.AGGREGATE_FOLDER)
                    : dir.resolve(ExportFiles.AGGREGATE_FOLDER).resolve(id.variation());
            final ObjectNode agg = aggregate(trials, id, aggDir, sweep ? point(id, trials, mode) : null, out, err);
            if (sweep && agg != null) {
                final JsonNode flat = agg.path(AggregateCodec.METRICS);
                points.add(new SweepAggregator.Point(id.variation(), id.parameters(), flat,
                        id.numTrials() > 1 ? SweepPointMetrics.ofAggregate(flat)
                                : SweepPointMetrics.ofSummary(trials.get(0).summary())));
                table.add(points.get(points.size() - 1));
            } else if (sweep) {
                table.add(new SweepAggregator.Point(id.variation(), id.parameters(), JSON.createObjectNode(),
                        JSON.createObjectNode()));
            }
        }
        if (!sweep) {
            return null;
        }
        final Path sweepDir = first.numTrials() > 1 && mode.equals(AggregateCodec.MODE_REPEATED)
                ? dir.resolve(ExportFiles.AGGREGATE_FOLDER).resolve(ExportFiles.SWEEP_FOLDER)
                : dir.resolve(ExportFiles.SWEEP_FOLDER);
        final Path file = sweepDir.resolve(SweepAggregator.FILE);
        final ObjectNode aggregate = SweepAggregator.aggregate(points,
                table.stream().map(SweepAggregator.Point::parameters).toList(), cells.size(), failed,
                first.numTrials(), first.confidenceLevel(), mode);
        try {
            AtomicFiles.write(file, JSON.writeValueAsBytes(aggregate));
            AtomicFiles.write(sweepDir.resolve(SweepAggregateCsv.FILE), SweepAggregateCsv.bytes(aggregate));
        } catch (IOException e) {
            err.println("warning: no sweep aggregate: " + e.getMessage());
            return null;
        }
        if (sweepTable) {
            out.println();
            out.print(SweepTable.render(table));
        }
        out.println("Sweep aggregate: " + file.toAbsolutePath());
        return aggregate;
    }

    /**
     * {@code independent} when each point ran its trials in a row, else {@code repeated} (trials in rounds over
     * the points, the default). The cells' order says which ({@link CellPlan}): in a row, the first two cells are
     * the same point; with one point the two orders are the same, and it is the default.
     */
    private static String sweepMode(final List<CellOutcome> cells) {
        final boolean inARow = cells.get(0).cell().numTrials() > 1
                && cells.stream().map(o -> o.cell().variation()).distinct().count() > 1
                && java.util.Objects.equals(cells.get(0).cell().variation(), cells.get(1).cell().variation());
        return inARow ? AggregateCodec.MODE_INDEPENDENT : AggregateCodec.MODE_REPEATED;
    }

    /** A sweep point as upstream's trial aggregate names it; the model from the first summary that says it. */
    private static TrialAggregator.PointMetadata point(final CellIdentity id, final List<TrialAggregator.Trial> trials,
                                                       final String mode) {
        final String model = trials.stream().filter(t -> t.summary() != null)
                .map(t -> t.summary().inputConfig().path("models").path("items").path(0).path("name"))
                .filter(JsonNode::isTextual).map(JsonNode::asText).findFirst().orElse(null);
        return new TrialAggregator.PointMetadata(UpstreamVariation.label(id.parameters()),
                UpstreamVariation.values(id.parameters()), mode, model);
    }

    /**
     * {@code report.html} and {@code comparison.svg} beside the aggregates, from the summaries the aggregates were
     * computed from; a report that cannot be drawn is a warning, never a failure.
     */
    private static void writeReport(final ReportWriter report, final List<CellOutcome> cells,
                                    final Function<CellOutcome, CellSummary> summaries, final String summaryName,
                                    final PrintStream out, final PrintStream err) {
        final String defaultName = ExportFiles.SUMMARY_JSON;
        final ExportNames names = ExportNames.of(
                summaryName.equals(defaultName) ? null : summaryName.substring(0, summaryName.length() - 5));
        try {
            final Path file = report.write(cells, summaries, names);
            out.println("Report: " + file.toAbsolutePath());
        } catch (RuntimeException e) {
            err.println("warning: no report.html: " + e.getMessage());
        }
    }

    private static TrialAggregator.Trial trial(final CellOutcome o,
                                               final Function<CellOutcome, CellSummary> summaries) {
        final CellSummary json = o.completed() ? summaries.apply(o) : null;
        return new TrialAggregator.Trial(o.cell().id(), json, json == null ? o.error() : null);
    }

    /** The trial aggregate of one point, written beside it when it can be; null when no trial succeeded. */
    private static ObjectNode aggregate(final List<TrialAggregator.Trial> trials, final CellIdentity id,
                                        final Path aggDir, final TrialAggregator.PointMetadata point,
                                        final PrintStream out, final PrintStream err) {
        final ObjectNode agg;
        try {
            agg = TrialAggregator.aggregate(trials, id.confidenceLevel(), id.cooldownSeconds(), point);
        } catch (IllegalArgumentException e) {
            err.println("warning: no aggregate in " + aggDir.toAbsolutePath() + ": " + e.getMessage());
            return null;
        }
        try {
            final Path file = aggDir.resolve(TrialAggregator.FILE);
            AtomicFiles.write(file, JSON.writeValueAsBytes(agg));
            AtomicFiles.write(aggDir.resolve(TrialAggregateCsv.FILE), TrialAggregateCsv.bytes(agg));
            if (id.numTrials() > 1) {
                printHighlights(agg, id, file, out);
            }
        } catch (IOException e) {
            err.println("warning: no aggregate in " + aggDir.toAbsolutePath() + ": " + e.getMessage());
        }
        return agg;
    }

    private static void printHighlights(final ObjectNode agg, final CellIdentity id, final Path file,
                                        final PrintStream out) {
        out.println();
        out.printf(Locale.ROOT, "Across %d trials%s (%.0f%% confidence):%n",
                agg.path(AggregateCodec.METADATA).path(AggregateCodec.NUM_SUCCESSFUL_RUNS).asInt(),
                id.variation() == null ? "" : " of " + id.variation(),
                agg.path(AggregateCodec.METADATA).path(AggregateCodec.CONFIDENCE_LEVEL).asDouble() * 100);
        boolean belowZero = false;
        for (final String key : List.of("time_to_first_token_p50", "inter_token_latency_avg", "request_latency_p50",
                "request_throughput_avg", "output_token_throughput_avg")) {
            final JsonNode m = agg.path(AggregateCodec.METRICS).path(key);
            if (m.isObject()) {
                out.printf(Locale.ROOT, "  %-30s %10.2f %-14s [%.2f, %.2f]%n", key,
                        m.path(AggregateCodec.MEAN).asDouble(), m.path(AggregateCodec.UNIT).asText(),
                        m.path(AggregateCodec.CI_LOW).asDouble(), m.path(AggregateCodec.CI_HIGH).asDouble());
                belowZero |= m.path(AggregateCodec.CI_LOW).asDouble() < 0;
            }
        }
        if (belowZero) {
            out.println("  note: an interval reaching below zero means the trials differ a lot for how few there are "
                    + "(Student's t with n-1 degrees of freedom); more trials (--num-profile-runs) narrow it");
        }
        out.println("Aggregate: " + file.toAbsolutePath());
    }

    private static void writeRunOutcome(final Path dir, final List<CellOutcome> outcomes, final int exit) {
        final ObjectNode root = JSON.createObjectNode();
        root.put(RunOutcomeCodec.SCHEMA_VERSION, "1.0");
        root.put(RunOutcomeCodec.AIPERF_VERSION, Version.VALUE);
        root.put(RunOutcomeCodec.STATUS, exit == ExitCode.OK ? CellStatus.COMPLETED.wireName()
                : ExitCode.stopped(exit) ? CellStatus.CANCELLED.wireName() : CellStatus.FAILED.wireName());
        root.put(RunOutcomeCodec.EXIT_CODE, exit);
        final ArrayNode cells = root.putArray(RunOutcomeCodec.CELLS);
        for (final CellOutcome o : outcomes) {
            final ObjectNode c = cells.addObject();
            c.put(RunOutcomeCodec.ID, o.cell().id());
            c.put(RunOutcomeCodec.LABEL, o.cell().id());
            c.put(RunOutcomeCodec.PATH, o.cell().path());
            c.put(RunOutcomeCodec.STATUS, o.status().wireName());
            c.put(RunOutcomeCodec.EXIT_CODE, o.exitCode());
            c.put(RunOutcomeCodec.ARTIFACT_DIR, o.artifactDir());
            c.put(RunOutcomeCodec.WARNINGS, o.warnings().size());
            if (o.error() == null) {
                c.putNull(RunOutcomeCodec.ERROR);
            } else {
                c.put(RunOutcomeCodec.ERROR, o.error());
            }
        }
        try {
            AtomicFiles.write(dir.resolve(RUN_OUTCOME_FILE), JSON.writeValueAsBytes(root));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
