package io.aiperf.engine.run;

import io.aiperf.engine.export.ConsoleTable;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.HttpTraceTable;
import io.aiperf.engine.export.RunReport;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.metrics.MetricValue;
import io.aiperf.engine.metrics.MetricsSummary;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.HookCall;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.validity.Check;
import io.aiperf.engine.validity.Validity;
import java.nio.file.Path;
import java.util.Locale;

/** What a cell prints: its metrics table, errors, validity lines, the exports' paths and the control hooks. */
final class CellConsole {
    private final CellContext ctx;
    private final Path dir;
    private final CellIdentity identity;

    CellConsole(final CellContext ctx, final Path dir, final CellIdentity identity) {
        this.ctx = ctx;
        this.dir = dir;
        this.identity = identity;
    }

    /** Whether this cell is one of several: its validity lines are then said once for the run, by MultiRunner. */
    private boolean oneOfSeveral() {
        return identity != null && !identity.path().equals(".");
    }

    /** Upstream's title for the endpoint's metrics, from the configuration the report echoes. */
    private static String metricsTitle(final RunReport report) {
        final String type = report.inputConfig() == null ? "chat"
                : report.inputConfig().path("endpoint").path("type").asText("chat");
        try {
            return io.aiperf.engine.config.EndpointType.parse("endpoint.type", type).metricsTitle();
        } catch (io.aiperf.engine.config.ConfigException e) {
            return "LLM Metrics";
        }
    }

    /** {@code --show-trace-timing}: the profiling requests' HTTP phases, after the summary. */
    void printTraceTiming(final MetricsSummary metrics) {
        ctx.out().println();
        ctx.out().print(HttpTraceTable.render(metrics));
    }

    /**
     * The cell's summary as the console shows it: the metrics table, the errors, and what a run that failed whole
     * or was cancelled means; also written as {@code profile_export_console.txt}, as upstream does.
     */
    String summaryText(final RunReport report, final MetricsSummary metrics) {
        final StringBuilder sb = new StringBuilder(ConsoleTable.render("AIPerf (Java) | " + metricsTitle(report),
                metrics));
        final String nl = System.lineSeparator();
        if (!metrics.errorSummary().isEmpty()) {
            sb.append("Errors:").append(nl);
            metrics.errorSummary().forEach(e -> sb.append("  ").append(e.count()).append(" x ")
                    .append(e.details().code() == null ? "" : e.details().code() + " ").append(e.details().type())
                    .append(": ").append(abbreviate(e.details().message())).append(nl));
        }
        if (metrics.get("request_count") == null && !metrics.errorSummary().isEmpty()) {
            sb.append("All requests failed. Check the URL, --endpoint-type and the request format "
                    + "(see the errors above and profile_export.jsonl).").append(nl);
        }
        if (report.wasCancelled()) {
            sb.append("The profile run was cancelled early. Results shown may be incomplete or inaccurate.")
                    .append(nl);
        }
        return sb.toString();
    }

    void printSummary(final RunReport report, final Validity.Report validity, final MetricsSummary metrics,
                      final ExportNames names) {
        final boolean quiet = ctx.log().consoleLevel().compareTo(RunLog.Level.WARNING) > 0;
        if (quiet && oneOfSeveral()) {
            return; // a quiet sweep prints its sweep table and the exports line, not every cell's table
        }
        if (oneOfSeveral() && ctx.log().consoleLevel().compareTo(RunLog.Level.DEBUG) > 0) {
            // One line a cell in sweeps, trials and searches: their closing table compares the cells; each cell's own
            // table is in its profile_export_console.txt, and on the console with -v.
            ctx.out().println(oneLine(metrics, report.wasCancelled()));
            return;
        }
        ctx.out().println();
        ctx.out().print(summaryText(report, metrics));
        // What the summary's validity block says, where it is not ok (src-docs/validity.md): on the console for a
        // single cell at WARNING and below; a run of several cells says it once for all of them (ValidityDigest).
        for (final Check c : validity.problems()) {
            final String line = "Validity " + c.result().wireName() + " (" + c.name() + "): " + c.message() + "; "
                    + c.fix();
            if (!quiet && !oneOfSeveral()) {
                ctx.out().println(line);
            } else {
                ctx.log().debug(line);
            }
        }
        ctx.out().println("Exports: " + dir.toAbsolutePath());
        if (!quiet || !oneOfSeveral()) {
            printUpstreamFooter(report, metrics, names);
        }
    }

    /** A cell in one line: its id, requests, errors, the latency that matters and throughput, and where it is. */
    private String oneLine(final MetricsSummary metrics, final boolean cancelled) {
        final MetricValue valid = metrics.get("request_count");
        final MetricValue errors = metrics.get("error_request_count");
        final MetricValue ttft = metrics.get("time_to_first_token");
        final MetricValue latency = ttft != null ? ttft : metrics.get("request_latency");
        final MetricValue throughput = metrics.get("request_throughput");
        return String.format(Locale.ROOT, "cell %s: %d valid, %d errors%s%s%s; %s", identity.id(),
                valid == null ? 0 : (long) valid.get("avg"), errors == null ? 0 : (long) errors.get("avg"),
                latency == null ? "" : String.format(Locale.ROOT, ", %s p50 %.1f ms", ttft != null ? "TTFT"
                        : "latency", latency.get("p50")),
                throughput == null ? "" : String.format(Locale.ROOT, ", %.2f req/s", throughput.get("avg")),
                cancelled ? " (cancelled)" : "", dir.toAbsolutePath());
    }

    /**
     * Upstream AIPerf's closing lines, word for word, for scripts that grep them: the command, the duration and the
     * absolute paths of the summary exports and the log.
     */
    private void printUpstreamFooter(final RunReport report, final MetricsSummary metrics, final ExportNames names) {
        ctx.out().println("CLI Command: " + ctx.cliCommand());
        final MetricValue duration = metrics.get("benchmark_duration");
        if (duration != null) {
            ctx.out().println(String.format(Locale.ROOT, "Benchmark Duration: %.2f sec%s",
                    duration.get("avg"), report.wasCancelled() ? " (cancelled early)" : ""));
        }
        ctx.out().println("CSV Export: " + dir.resolve(names.summaryCsv()).toAbsolutePath());
        ctx.out().println("JSON Export: " + dir.resolve(names.summaryJson()).toAbsolutePath());
        ctx.out().println("Log File: " + dir.resolve(ExportFiles.LOG_FOLDER).resolve(ExportFiles.LOG_FILE).toAbsolutePath());
    }

    void printHooks(final CellOutcome outcome) {
        if (outcome.hooks().isEmpty()) {
            return;
        }
        ctx.out().println("Control hooks:");
        for (final HookCall c : outcome.hooks()) {
            ctx.out().println("  " + c.hook() + " " + c.url() + ": " + c.result()
                    + (c.statusCode() == null ? "" : " (" + c.statusCode() + ")")
                    + (c.attempts() > 1 ? ", " + c.attempts() + " attempts" : ""));
        }
        outcome.warnings().forEach(w -> ctx.out().println("  warning: " + w));
    }

    private static String abbreviate(final String s) {
        return s == null ? "" : s.length() <= 160 ? s : s.substring(0, 160) + "...";
    }
}
