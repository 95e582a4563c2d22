package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.MultiRunConfig;
import io.aiperf.engine.config.Variation;
import io.aiperf.engine.export.AtomicFiles;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.run.CellContext;
import io.aiperf.engine.run.CellRunner;
import io.aiperf.engine.run.Version;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs every cell of a configuration: one cell, or each (sweep variation, trial) as a full cell of its own (own
 * KV-cache reset, warmup only in the first trial by default), then the per-variation trial aggregates, the
 * sweep aggregate and {@code run_outcome.json} (reference §9.2).
 */
public final class MultiRunner {
    public static final String RUN_OUTCOME_FILE = "run_outcome.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private MultiRunner() {
    }

    /** One cell to run: a variation (or none) in a trial, with its directory and label. */
    private record Cell(String label, Variation variation, int trial, Path dir, BenchmarkConfig config) {
    }

    /** @return the exit code: 130 if cancelled, 1 if any cell failed, else 0 */
    public static int run(final BenchmarkConfig config, final Path dir, final CellContext ctx) throws InterruptedException {
        final MultiRunConfig multi = config.multiRun();
        if (multi.numRuns() == 1 && !config.isSweep()) {
            return new CellRunner(config, dir, ctx).run().exitCode();
        }
        final List<Cell> cells = plan(config, dir);
        final List<CellOutcome> outcomes = new ArrayList<>();
        int lastTrial = 1;
        for (final Cell cell : cells) {
            if (ctx.cancellation().isCancelled()) {
                break;
            }
            if (cell.trial() != lastTrial && multi.cooldownSeconds() > 0) {
                cooldown(multi.cooldownSeconds(), ctx);
            }
            lastTrial = cell.trial();
            ctx.err().println("cell " + (outcomes.size() + 1) + "/" + cells.size() + ": " + cell.label());
            final CellOutcome outcome = new CellRunner(cell.config(), cell.dir(), ctx).run();
            outcomes.add(outcome);
            if (outcome.exitCode() == 130) {
                break;
            }
        }
        final List<Cell> ran = cells.subList(0, outcomes.size());
        final String summaryName = ExportNames.of(config.artifacts().prefix()).summaryJson();
        final List<SweepAggregator.Point> points = new ArrayList<>();
        for (final Variation v : config.isSweep() ? config.variations() : java.util.Collections.<Variation>singletonList(null)) {
            final List<TrialAggregator.Trial> trials = new ArrayList<>();
            for (int i = 0; i < ran.size(); i++) {
                if (ran.get(i).variation() == v) {
                    trials.add(trial(ran.get(i).label(), outcomes.get(i), summaryName));
                }
            }
            final Path aggDir = v == null ? dir.resolve("aggregate") : dir.resolve("aggregate").resolve(v.label());
            final ObjectNode agg = multi.numRuns() > 1 ? aggregate(trials, multi, aggDir, ctx) : null;
            if (v != null && !trials.isEmpty()) {
                points.add(new SweepAggregator.Point(v, agg != null ? agg.path("metrics")
                        : singleTrialMetrics(trials.get(0))));
            }
        }
        if (config.isSweep()) {
            try {
                AtomicFiles.write(dir.resolve("sweep_aggregate").resolve(SweepAggregator.FILE), JSON.writeValueAsBytes(
                        SweepAggregator.aggregate(points, multi.numRuns(), multi.confidenceLevel())));
                ctx.out().println("Sweep aggregate: sweep_aggregate/" + SweepAggregator.FILE);
            } catch (IOException e) {
                ctx.err().println("warning: no sweep aggregate: " + e.getMessage());
            }
        }
        final int exit = outcomes.stream().anyMatch(o -> o.exitCode() == 130) || ctx.cancellation().isCancelled() ? 130
                : outcomes.stream().anyMatch(o -> o.exitCode() != 0) ? 1 : 0;
        writeRunOutcome(dir, outcomes, ran.stream().map(Cell::label).toList(), exit);
        return exit;
    }

    /**
     * Trials outer, variations inner (AIPerf's "repeated" order: every variation sees the same drift). Layout:
     * {@code <label>/} for a sweep, {@code profile_runs/run_NNNN/} for trials, both nested for a sweep with trials.
     */
    private static List<Cell> plan(final BenchmarkConfig config, final Path dir) {
        final MultiRunConfig multi = config.multiRun();
        final List<Cell> cells = new ArrayList<>();
        for (int t = 1; t <= multi.numRuns(); t++) {
            final boolean dropWarmup = t > 1 && multi.disableWarmupAfterFirst();
            if (!config.isSweep()) {
                final String label = String.format(Locale.ROOT, "run_%04d", t);
                cells.add(new Cell(label, null, t, dir.resolve("profile_runs").resolve(label),
                        config.forTrial(config.randomSeed(), dropWarmup)));
                continue;
            }
            for (final Variation v : config.variations()) {
                final Long seed = v.config().randomSeed() == null ? null : v.config().randomSeed() + v.index();
                final Path cellDir = multi.numRuns() == 1 ? dir.resolve(v.label())
                        : dir.resolve("profile_runs").resolve(String.format(Locale.ROOT, "trial_%04d", t)).resolve(v.label());
                final String label = multi.numRuns() == 1 ? v.label()
                        : String.format(Locale.ROOT, "trial_%04d/%s", t, v.label());
                cells.add(new Cell(label, v, t, cellDir, v.config().forTrial(seed, dropWarmup)));
            }
        }
        return cells;
    }

    private static void cooldown(final double seconds, final CellContext ctx) throws InterruptedException {
        final long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end && !ctx.cancellation().isCancelled()) {
            Thread.sleep(Math.min(100, Math.max(1, (end - System.nanoTime()) / 1_000_000L)));
        }
    }

    private static TrialAggregator.Trial trial(final String label, final CellOutcome o, final String summaryName) {
        final Path summary = Path.of(o.artifactDir()).resolve(summaryName);
        JsonNode json = null;
        if (CellOutcome.COMPLETED.equals(o.status()) && Files.isRegularFile(summary)) {
            try {
                json = JSON.readTree(summary.toFile());
            } catch (IOException e) {
                json = null;
            }
        }
        return new TrialAggregator.Trial(label, json, json == null ? o.error() : null);
    }

    /** One trial's summary as {@code <tag>_<stat>: {mean, unit}}, so sweeps without trials read like aggregates. */
    private static JsonNode singleTrialMetrics(final TrialAggregator.Trial t) {
        final ObjectNode out = JSON.createObjectNode();
        if (t.summary() == null) {
            return out;
        }
        t.summary().properties().forEach(metric -> {
            if (metric.getValue().isObject() && metric.getValue().has("unit")) {
                metric.getValue().properties().forEach(stat -> {
                    if (stat.getValue().isNumber()) {
                        out.putObject(metric.getKey() + "_" + stat.getKey()).put("mean", stat.getValue().doubleValue())
                                .put("unit", metric.getValue().get("unit").asText());
                    }
                });
            }
        });
        return out;
    }

    private static ObjectNode aggregate(final List<TrialAggregator.Trial> trials, final MultiRunConfig multi,
                                        final Path aggDir, final CellContext ctx) {
        try {
            final ObjectNode agg = TrialAggregator.aggregate(trials, multi.confidenceLevel(), multi.cooldownSeconds());
            AtomicFiles.write(aggDir.resolve(TrialAggregator.FILE), JSON.writeValueAsBytes(agg));
            printHighlights(agg, ctx);
            return agg;
        } catch (IllegalArgumentException | IOException e) {
            ctx.err().println("warning: no aggregate in " + aggDir + ": " + e.getMessage());
            return null;
        }
    }

    private static void printHighlights(final ObjectNode agg, final CellContext ctx) {
        ctx.out().println();
        ctx.out().printf(Locale.ROOT, "Across %d trials (%.0f%% confidence):%n",
                agg.path("metadata").path("num_successful_runs").asInt(),
                agg.path("metadata").path("confidence_level").asDouble() * 100);
        for (final String key : List.of("time_to_first_token_p50", "inter_token_latency_avg", "request_latency_p50",
                "request_throughput_avg", "output_token_throughput_avg")) {
            final JsonNode m = agg.path("metrics").path(key);
            if (m.isObject()) {
                ctx.out().printf(Locale.ROOT, "  %-30s %10.2f %-14s [%.2f, %.2f]%n", key, m.path("mean").asDouble(),
                        m.path("unit").asText(), m.path("ci_low").asDouble(), m.path("ci_high").asDouble());
            }
        }
        ctx.out().println("Aggregate written.");
    }

    private static void writeRunOutcome(final Path dir, final List<CellOutcome> outcomes, final List<String> labels,
                                        final int exit) {
        final ObjectNode root = JSON.createObjectNode();
        root.put("schema_version", "1.0");
        root.put("aiperf_version", Version.VALUE);
        root.put("status", exit == 0 ? CellOutcome.COMPLETED : exit == 130 ? CellOutcome.CANCELLED : CellOutcome.FAILED);
        root.put("exit_code", exit);
        final ArrayNode cells = root.putArray("cells");
        for (int i = 0; i < outcomes.size(); i++) {
            final CellOutcome o = outcomes.get(i);
            final ObjectNode c = cells.addObject();
            c.put("label", labels.get(i));
            c.put("status", o.status());
            c.put("exit_code", o.exitCode());
            c.put("artifact_dir", o.artifactDir());
            c.put("warnings", o.warnings().size());
            if (o.error() == null) {
                c.putNull("error");
            } else {
                c.put("error", o.error());
            }
        }
        try {
            AtomicFiles.write(dir.resolve(RUN_OUTCOME_FILE), JSON.writeValueAsBytes(root));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
