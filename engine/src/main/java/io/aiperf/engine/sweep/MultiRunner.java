package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.MultiRunConfig;
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
 * Runs every cell of a configuration: one cell, or {@code num_runs} trials in
 * {@code profile_runs/run_NNNN/} (each a full cell: its own KV-cache reset, warmup only in the first trial by
 * default), then {@code aggregate/profile_export_aiperf_aggregate.json} and {@code run_outcome.json}.
 */
public final class MultiRunner {
    public static final String RUN_OUTCOME_FILE = "run_outcome.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private MultiRunner() {
    }

    /** @return the exit code: 130 if cancelled, 1 if any cell failed, else 0 */
    public static int run(final BenchmarkConfig config, final Path dir, final CellContext ctx) throws InterruptedException {
        final MultiRunConfig multi = config.multiRun();
        if (multi.numRuns() == 1) {
            return new CellRunner(config, dir, ctx).run().exitCode();
        }
        final List<CellOutcome> outcomes = new ArrayList<>();
        final List<String> labels = new ArrayList<>();
        for (int trial = 1; trial <= multi.numRuns() && !ctx.cancellation().isCancelled(); trial++) {
            final String label = String.format(Locale.ROOT, "run_%04d", trial);
            ctx.err().println("trial " + trial + "/" + multi.numRuns() + " (" + label + ")");
            final BenchmarkConfig cell = config.forTrial(config.randomSeed(), trial > 1 && multi.disableWarmupAfterFirst());
            final CellOutcome outcome = new CellRunner(cell, dir.resolve("profile_runs").resolve(label), ctx).run();
            outcomes.add(outcome);
            labels.add(label);
            if (outcome.exitCode() == 130) {
                break;
            }
            if (trial < multi.numRuns() && multi.cooldownSeconds() > 0) {
                cooldown(multi.cooldownSeconds(), ctx);
            }
        }
        aggregate(config, dir, ctx, outcomes, labels);
        final int exit = outcomes.stream().anyMatch(o -> o.exitCode() == 130) || ctx.cancellation().isCancelled() ? 130
                : outcomes.stream().anyMatch(o -> o.exitCode() != 0) ? 1 : 0;
        writeRunOutcome(dir, outcomes, labels, exit);
        return exit;
    }

    private static void cooldown(final double seconds, final CellContext ctx) throws InterruptedException {
        final long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end && !ctx.cancellation().isCancelled()) {
            Thread.sleep(Math.min(100, Math.max(1, (end - System.nanoTime()) / 1_000_000L)));
        }
    }

    private static void aggregate(final BenchmarkConfig config, final Path dir, final CellContext ctx,
                                  final List<CellOutcome> outcomes, final List<String> labels) {
        final String summaryName = ExportNames.of(config.artifacts().prefix()).summaryJson();
        final List<TrialAggregator.Trial> trials = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            final CellOutcome o = outcomes.get(i);
            final Path summary = Path.of(o.artifactDir()).resolve(summaryName);
            JsonNode json = null;
            if (CellOutcome.COMPLETED.equals(o.status()) && Files.isRegularFile(summary)) {
                try {
                    json = JSON.readTree(summary.toFile());
                } catch (IOException e) {
                    json = null;
                }
            }
            trials.add(new TrialAggregator.Trial(labels.get(i), json, json == null ? o.error() : null));
        }
        try {
            final ObjectNode agg = TrialAggregator.aggregate(trials, config.multiRun().confidenceLevel(),
                    config.multiRun().cooldownSeconds());
            AtomicFiles.write(dir.resolve("aggregate").resolve(TrialAggregator.FILE), JSON.writeValueAsBytes(agg));
            printHighlights(agg, ctx);
        } catch (IllegalArgumentException | IOException e) {
            ctx.err().println("warning: no aggregate: " + e.getMessage());
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
        ctx.out().println("Aggregate: " + "aggregate/" + TrialAggregator.FILE);
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
