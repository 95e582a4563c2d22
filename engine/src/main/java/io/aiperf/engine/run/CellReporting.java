package io.aiperf.engine.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.export.AtomicFiles;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.InputConfigEcho;
import io.aiperf.engine.export.InputsJsonWriter;
import io.aiperf.engine.export.OutcomeJsonWriter;
import io.aiperf.engine.export.RunReport;
import io.aiperf.engine.export.SummaryCsvWriter;
import io.aiperf.engine.export.SummaryJsonWriter;
import io.aiperf.engine.export.Timeslices;
import io.aiperf.engine.hooks.HookLog;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.metrics.MetricsSummary;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.record.Environment;
import io.aiperf.engine.record.ShardRun;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.SummaryCodec;
import io.aiperf.engine.telemetry.ServerMetrics;
import io.aiperf.engine.telemetry.ServerMetricsCollector;
import io.aiperf.engine.time.WallClock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * A cell's reporting, once its phases ended: the records committed, the summary judged once and its exports
 * written (a new export file is written here), the console's summary, and {@code cell_outcome.json}.
 */
final class CellReporting {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final BenchmarkConfig config;
    private final CellContext ctx;
    private final Path dir;
    private final CellIdentity identity;
    private final HookLog hookLog;
    private final CellConsole console;

    /** How a cell that ran its phases ended, and what it measured. */
    record Reported(CellStatus status, String error, long valid, long errors, CellSummary summary,
                    JsonNode summaryJson) {
    }

    CellReporting(final BenchmarkConfig config, final CellContext ctx, final Path dir, final CellIdentity identity,
                  final HookLog hookLog) {
        this.config = config;
        this.ctx = ctx;
        this.dir = dir;
        this.identity = identity;
        this.hookLog = hookLog;
        this.console = new CellConsole(ctx, dir, identity);
    }

    /** The process's CPU time so far, 0 where the JVM does not say. */
    static long processCpuNanos() {
        final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
    }

    Reported report(final CellSetup.Prepared p, final CellExecution.Executed e, final WallClock wall,
                    final long cellStart, final long cpuStartNanos) throws InterruptedException, CellStopped {
        final RecordProcessor.Result processed;
        try {
            processed = p.processor().finish();
        } catch (CellStopped stuck) {
            if (p.scraper() != null) {
                p.scraper().shutdown();
            }
            p.recordFiles().abort();
            throw new CellStopped(stuck.status(), stuck.getMessage(), e.sent());
        }
        if (p.scraper() != null) {
            p.scraper().shutdown();
        }
        p.gpu().finish();
        if (processed.lostRecords() > 0) {
            ctx.log().warning(processed.lostRecords() + " record(s) could not be processed at all and are missing "
                    + "from the metrics");
        }
        String writeError = p.recordFiles().commit(processed.writeFailure());
        final MetricsSummary metrics = processed.profiling();
        final RunReport report = runReport(p, e, processed, wall, cellStart, cpuStartNanos);
        warnOfPoolWaits(report);
        final SummaryJsonWriter.Written summary = SummaryJsonWriter.write(report);
        io.aiperf.engine.export.CellRunInfo.apply(summary.json(), identity, ctx.runId());
        final ExportNames names = p.names();
        try {
            writeExports(report, summary, metrics, names);
            final String consoleText = console.summaryText(report, metrics);
            write(names.consoleTxt(), out -> out.write(consoleText.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            writeServerMetrics(p.scraper(), names, report);
            if (writeError == null) {
                writeTimeslices(names);
                // upstream 0.13's marker, written last: the cell's result files are all in place
                write(io.aiperf.engine.summary.ExportFiles.READY_MARKER, out -> out.write(("{\"ready\":true,\"was_cancelled\":" + e.cancelled()
                        + ",\"partial\":false}").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            }
        } catch (UncheckedIOException x) {
            writeError = writeError != null ? writeError : x.getMessage(); // names the file; the summary is still shown
        }
        console.printSummary(report, summary.validity(), metrics, names);
        if (p.showTraceTiming()) {
            console.printTraceTiming(metrics);
        }
        if (PromptCacheHint.applies(metrics, e.server())) {
            ctx.log().warningOnce(PromptCacheHint.MESSAGE); // after the table, where upstream prints it too
        }
        final long valid = metrics.validCount();
        final long errors = metrics.errorCount();
        final JsonNode written = asWritten(summary);
        final CellSummary cellSummary = SummaryCodec.read(written);
        if (writeError != null) {
            return new Reported(CellStatus.FAILED, "exports not written: " + writeError, valid, errors, cellSummary,
                    null);
        }
        if (e.aborted() != null && !ctx.cancellation().isCancelled()) {
            return new Reported(CellStatus.FAILED, e.aborted() + CellVerdict.mostFrequentError(metrics), valid,
                    errors, cellSummary, written);
        }
        if (e.cancelled()) {
            return new Reported(CellStatus.CANCELLED, "cancelled by the user", valid, errors, cellSummary, written);
        }
        final String failure = CellVerdict.failure(valid, errors, config.limits().maxErrorRatePct(), metrics);
        return new Reported(failure != null ? CellStatus.FAILED : CellStatus.COMPLETED, failure, valid, errors,
                cellSummary, written);
    }

    /** Writes {@code cell_outcome.json}, prints the control hooks and closes the cell's log. */
    CellOutcome finish(final CellStatus stopped, final String error, final long sent, final long valid,
                       final long errors, final ShardRun shardRun) {
        // a cancel's exit code says which signal asked for it: the outcome files must agree with the process
        final CellStatus status = stopped == CellStatus.CANCELLED && ctx.cancellation().terminated()
                ? CellStatus.TERMINATED : stopped;
        final List<String> warnings = hookLog.warnings().stream().map(ctx.redactor()::text).toList();
        final CellOutcome outcome = new CellOutcome(status, dir.toAbsolutePath().toString(), hookLog.calls(), warnings, ctx.redactor().text(error), sent, valid,
                errors, identity, shardRun);
        try {
            write(OutcomeJsonWriter.FILE, out -> out.write(OutcomeJsonWriter.bytes(outcome, Version.VALUE)));
        } catch (UncheckedIOException x) {
            ctx.log().error(x.getMessage());
        }
        console.printHooks(outcome);
        if (error != null && (status == CellStatus.FAILED || status == CellStatus.BAD_INPUT)) {
            ctx.log().error(error);
        }
        outcome.hooks().forEach(h -> ctx.log().debug("hook " + h.describe()));
        ctx.log().debug("cell " + status.wireName() + ": " + sent + " sent, " + valid + " valid, " + errors
                + " failed");
        ctx.log().closeFile();
        return outcome;
    }

    private RunReport runReport(final CellSetup.Prepared p, final CellExecution.Executed e,
                                final RecordProcessor.Result processed, final WallClock wall, final long cellStart,
                                final long cpuStartNanos) {
        final RequestSource source = p.source();
        final List<RunReport.Input> inputs = new ArrayList<>();
        for (int i = 0; i < source.size(); i++) {
            inputs.add(new RunReport.Input(source.conversation(i).id(), source.bodies(i)));
        }
        return new RunReport(Version.VALUE, UUID.randomUUID().toString(),
                InputConfigEcho.of(ctx.redactor().config(config.given()), config),
                ctx.cliCommand(), config.randomSeed(),
                processed.profiling(), processed.warmup(), e.cancelled(), inputs, cellStart,
                wall.toEpochNanos(ctx.clock().nanoTime()),
                new RunReport.ClientHealth(e.maxLagNanos() / 1e6, (processCpuNanos() - cpuStartNanos) / 1e9,
                        e.abandoned(), e.openLoop(), processed.transport().withConnectsOpened(e.windowConnects()),
                        processed.queueFullWaits(), e.wakeupP99()),
                environment(e.server(), p.tokenizer(), e.connection()));
    }

    private void warnOfPoolWaits(final RunReport report) {
        if (report.health().limitedBy().contains("pool_wait")) {
            final double wait = report.health().transport().poolWaitP99Millis();
            ctx.log().warning(String.format(Locale.ROOT, "the client limited the run: requests waited "
                    + "%.1f ms at p99 for a connection", wait), String.format(Locale.ROOT, "the client "
                    + "limited the run: requests waited %.1f ms at p99 for a connection (over %.0f ms; "
                    + "client_health.transport), time the server never saw", wait,
                    RunReport.ClientHealth.POOL_WAIT_LIMIT_MILLIS));
        }
    }

    /**
     * The summary as its file holds it: through the redactor, read back from memory. A secret made of characters a
     * number holds (a password of digits) masks numbers too; then the file is not JSON, and the summary keeps its
     * numbers with its strings redacted, so the run still ends with its outcome.
     */
    private JsonNode asWritten(final SummaryJsonWriter.Written summary) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            try (OutputStream redacted = ctx.redactor().file(bytes)) {
                redacted.write(summary.bytes());
            }
            try {
                return JSON.readTree(bytes.toByteArray());
            } catch (com.fasterxml.jackson.core.JsonProcessingException masked) {
                return ctx.redactor().strings(JSON.readTree(summary.bytes()));
            }
        } catch (IOException x) {
            throw new UncheckedIOException(x); // memory only: not expected
        }
    }

    private Environment environment(final Environment.ServerIdentity server, final Tokenizer tokenizer,
                                    final Environment.Connection connection) {
        final double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return new Environment(Version.VALUE, Version.COMMIT, System.getProperty("java.vendor") + " "
                + Runtime.version(), Runtime.getRuntime().availableProcessors(), load, System.getProperty("os.name")
                + " " + System.getProperty("os.version"), String.join(",", config.models()),
                tokenizer.name() + " (" + tokenizer.source() + ")", new Environment.TokenizerInfo(tokenizer.name(),
                tokenizer.revision(), tokenizer.source(), tokenizer.vocabularySize()), configHash(), server, connection);
    }

    /**
     * SHA-256 of what was asked of the server: the effective configuration without where the results go or which
     * host served them (an A/B comparison has two), secrets already redacted.
     */
    private String configHash() {
        final ObjectNode tree = ctx.redactor().config(config.effective());
        final JsonNode benchmark = tree.path("benchmark");
        if (benchmark instanceof ObjectNode b) {
            b.remove("artifacts");
            if (b.path("runtime") instanceof ObjectNode rt) {
                rt.remove(List.of("shard", "start_at")); // the shards of one cell share its config
            }
            if (b.path("endpoint") instanceof ObjectNode ep) {
                ep.remove(List.of("url", "urls"));
            }
        }
        try {
            final byte[] digest = MessageDigest.getInstance("SHA-256").digest(JSON.writeValueAsBytes(tree));
            return "sha256:" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException | JsonProcessingException x) {
            return null;
        }
    }

    /** The files written from the summaries; the records' JSONL was written as they came. */
    private void writeExports(final RunReport report, final SummaryJsonWriter.Written summary,
                              final MetricsSummary metrics, final ExportNames names) {
        write(names.inputsJson(), out -> out.write(InputsJsonWriter.bytes(report.inputs())));
        write(names.summaryCsv(), out -> out.write(SummaryCsvWriter.bytes(metrics)));
        write(names.summaryJson(), out -> out.write(summary.bytes()));
    }

    /** The timeslices (--slice-duration), from the records just committed. */
    private void writeTimeslices(final ExportNames names) {
        final Double slice = config.artifacts().sliceDurationSeconds();
        if (slice == null) {
            return;
        }
        try {
            final List<MetricsSummary> slices = Timeslices.compute(dir.resolve(names.recordsJsonl()), slice,
                    config.goodputSlos());
            write(names.timeslicesJson(), out -> out.write(Timeslices.json(slices, slice)));
            write(names.timeslicesCsv(), out -> out.write(Timeslices.csv(slices)));
        } catch (IOException x) {
            ctx.log().warning("no timeslices: " + x.getMessage());
        }
    }

    /** What to do about a server without a metrics route. */
    private static final String NO_METRICS_ROUTE = ": llama.cpp's server serves /metrics only when started with "
            + "--metrics; --server-metrics names another URL, --no-server-metrics stops asking";

    /** The servers' metrics over the profiling window, in the formats asked for; nothing when no server answered. */
    private void writeServerMetrics(final ServerMetricsCollector scraper, final ExportNames names,
                                    final RunReport report) {
        if (scraper == null) {
            return;
        }
        final ServerMetrics metrics = scraper.result();
        metrics.unanswered().forEach((url, why) -> ctx.log().log(RunLog.Level.NOTICE,
                "server metrics not collected from " + url + " (" + why + ")" + (why.startsWith("HTTP 404")
                        || why.startsWith("HTTP 501") ? NO_METRICS_ROUTE : "")));
        if (!metrics.anyAnswered()) {
            return;
        }
        final var formats = config.endpoint().serverMetrics().formats();
        final ServerMetrics.About about = new ServerMetrics.About(report.version(), report.benchmarkId(),
                report.inputConfig());
        if (formats.contains("json")) {
            write(names.serverMetricsJson(), out -> out.write(metrics.json(about)));
        }
        if (formats.contains("csv")) {
            write(names.serverMetricsCsv(), out -> out.write(metrics.csv(about)));
        }
    }

    /** Every file of the cell goes to disk through the redactor: a server may have echoed a secret into it. */
    private void write(final String name, final AtomicFiles.Writer writer) {
        AtomicFiles.write(dir.resolve(name), out -> {
            try (OutputStream redacted = ctx.redactor().file(out)) {
                writer.write(redacted);
            }
        });
    }
}
