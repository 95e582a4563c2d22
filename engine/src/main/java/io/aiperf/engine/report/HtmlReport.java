package io.aiperf.engine.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.HookCall;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.summary.GateResultCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@code report.html} (src-docs/report.md): one self-contained page that leads with the decision. With a gate, the
 * verdict and its reasons come first, then each gated metric (baseline, candidate, change, interval, p, the limit
 * drawn); then, per sweep point, the runs side by side (throughput against latency, the across-trials means with
 * their intervals), the distributions of TTFT, ITL and request latency, the cells with their run, the timelines, the
 * control hooks and the environment with its differences marked. Runs are never pooled: each is its own series.
 * No script, no style sheet, no fetch: inline SVG with presentation attributes, so it renders under the
 * Content-Security-Policy Jenkins applies to archived files, in light and dark schemes. Stateless.
 */
public final class HtmlReport {
    /** The report's file name, next to a run's aggregates. */
    public static final String FILE = ExportFiles.REPORT_HTML;

    /** A section of the page that another part of the engine draws (a capacity search's, say). */
    interface Section {
        /** Appends the section's HTML (an {@code <h2 id=...>} and its content, inline SVG only), or nothing. */
        void append(StringBuilder page, ReportData data);
    }

    /**
     * The sections after the comparison charts and before the cells, in order; other report sections are added
     * here, one line each.
     */
    private static final List<Section> EXTRA_SECTIONS = List.of(
            (page, data) -> CapacitySection.append(page, data.searches()));

    private HtmlReport() {
    }

    /**
     * The page for run directories: one directory is one run (and, when it holds a gate's result that names its
     * baselines, the comparison with them); several are compared, each its own run named by its directory.
     */
    public static String html(final List<Path> dirs, final ExportNames names) {
        return page(data(dirs, names));
    }

    /**
     * The page of the run in {@code dir} whose cells were just run, from their outcomes and summaries and its search
     * in memory: nothing of the run is read back.
     *
     * @param summaries each cell's summary, or null when it wrote none
     * @param search the capacity search's result as the search assembled it, or null
     */
    public static String html(final Path dir, final List<CellOutcome> cells,
                              final Function<CellOutcome, CellSummary> summaries, final JsonNode search,
                              final ExportNames names) {
        return page(data(dir, cells, summaries, null, search, names));
    }

    /** The run just made, all of it in memory; with a gate's result, the run is its candidate. */
    static ReportData data(final Path dir, final List<CellOutcome> cells,
                           final Function<CellOutcome, CellSummary> summaries, final JsonNode gate,
                           final JsonNode search, final ExportNames names) {
        final Path run = dir.toAbsolutePath().normalize();
        return ReportData.of(gate != null ? "candidate" : name(run), run, cells, summaries, gate, search, names);
    }

    /**
     * The run in {@code dir} whose cells {@code aiperf aggregate} merged, from their outcomes and summaries; a gate's
     * result already in {@code dir} (and the baselines it names) are read from disk, where they are.
     */
    static ReportData merged(final Path dir, final List<CellOutcome> cells,
                             final Function<CellOutcome, CellSummary> summaries, final ExportNames names) {
        final Path run = dir.toAbsolutePath().normalize();
        final Path gate = ReportData.gateFile(run);
        if (gate != null && !recordedBaselines(gate, run).isEmpty()) {
            return data(List.of(run), names); // a comparison with baselines, which only their files hold
        }
        final ReportData memory = ReportData.of(gate != null ? "candidate" : name(run), run, cells, summaries,
                gate == null ? null : ReportData.read(gate), null, names);
        final CapacitySection.Found search = CapacitySection.Found.read(run);
        return search == null ? memory : new ReportData(memory.runs(), memory.gate(), List.of(search));
    }

    static ReportData data(final List<Path> dirs, final ExportNames names) {
        final List<Path> distinct = dirs.stream().map(p -> p.toAbsolutePath().normalize()).distinct().toList();
        if (distinct.size() == 1) {
            final Path gate = ReportData.gateFile(distinct.get(0));
            final List<Path> baselines = gate == null ? List.of() : recordedBaselines(gate, distinct.get(0));
            if (!baselines.isEmpty()) {
                return comparisonData("baseline", baselines, "candidate", distinct.get(0), gate, names);
            }
            // A gated run is the candidate, as the gate's own report of it names it.
            return ReportData.load(List.of(new ReportData.Side(gate != null ? "candidate" : name(distinct.get(0)),
                    distinct)), gate, names);
        }
        final List<ReportData.Side> sides = new ArrayList<>();
        final Set<String> used = new LinkedHashSet<>();
        Path gate = null;
        for (final Path d : distinct) {
            String n = name(d);
            for (int i = 2; !used.add(n); i++) {
                n = name(d) + " (" + i + ")";
            }
            sides.add(new ReportData.Side(n, List.of(d)));
            gate = gate != null ? gate : ReportData.gateFile(d);
        }
        return ReportData.load(sides, gate, names);
    }

    /**
     * The page of a gate or a comparison: the baselines (one run, their trials pooled as the gate pools them)
     * against the candidate.
     *
     * @param gateFile the gate's {@code gate_result.json}, or null
     */
    public static String comparison(final List<Path> baselines, final Path candidate, final Path gateFile,
                                    final ExportNames names) {
        return page(comparisonData("baseline", baselines, "candidate", candidate, gateFile, names));
    }

    /** As {@link #comparison(List, Path, Path, ExportNames)} with the runs' names. */
    public static String comparison(final String baselineName, final List<Path> baselines, final String candidateName,
                                    final Path candidate, final Path gateFile, final ExportNames names) {
        return page(comparisonData(baselineName, baselines, candidateName, candidate, gateFile, names));
    }

    static ReportData comparisonData(final String baselineName, final List<Path> baselines,
                                     final String candidateName, final Path candidate, final Path gateFile,
                                     final ExportNames names) {
        final List<Path> base = baselineDirs(baselines);
        if (base.isEmpty()) { // a first build: the candidate alone, with the gate's verdict
            return ReportData.load(List.of(new ReportData.Side(candidateName, List.of(candidate))), gateFile, names);
        }
        return ReportData.load(List.of(new ReportData.Side(baselineName, base),
                new ReportData.Side(candidateName, List.of(candidate))), gateFile, names);
    }

    /**
     * As {@link #comparisonData(String, List, String, Path, Path, ExportNames)} for a candidate whose cells were just
     * run, from their outcomes, summaries and the gate's result in memory; the baselines are read from their files.
     *
     * @param gate the gate's result as the gate made it, or null
     * @param search the candidate's capacity search as it assembled it, or null
     */
    static ReportData comparisonData(final String baselineName, final List<Path> baselines,
                                     final String candidateName, final Path candidate, final List<CellOutcome> cells,
                                     final Function<CellOutcome, CellSummary> summaries, final JsonNode gate,
                                     final JsonNode search, final ExportNames names) {
        final List<Path> base = baselineDirs(baselines);
        final ReportData cand = ReportData.of(candidateName, candidate.toAbsolutePath().normalize(), cells, summaries,
                gate, search, names);
        return base.isEmpty() ? cand // a first build: the candidate alone, with the gate's verdict
                : ReportData.baselines(new ReportData.Side(baselineName, base), names).then(cand);
    }

    private static List<Path> baselineDirs(final List<Path> baselines) {
        return baselines.stream().filter(Files::exists)
                .map(p -> Files.isRegularFile(p) ? p.toAbsolutePath().getParent() : p).toList();
    }

    /** The baselines a gate's result names, when it gated {@code dir} and they still exist. */
    private static List<Path> recordedBaselines(final Path gateFile, final Path dir) {
        final JsonNode gate = ReportData.read(gateFile);
        if (gate == null || !dir.toString().equals(gate.path(GateResultCodec.CANDIDATE).asText())) {
            return List.of();
        }
        final List<Path> out = new ArrayList<>();
        for (final JsonNode b : gate.path(GateResultCodec.BASELINES)) {
            final Path p = Path.of(b.asText());
            if (Files.exists(p)) {
                out.add(p);
            }
        }
        return out;
    }

    private static String name(final Path dir) {
        return dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
    }

    static String page(final ReportData data) {
        final StringBuilder page = new StringBuilder(64 * 1024);
        page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"color-scheme\" content=\"light dark\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>AIPerf (Java) report</title>\n</head>\n<body>\n")
                // The reader's own system font for the whole page; nothing is fetched.
                .append("<font face=\"").append(Palette.FONT).append("\">\n")
                .append("<h1>AIPerf (Java) report</h1>\n");
        UnfinishedBanner.append(page, data);
        ValidityBanner.append(page, data);
        page.append("<p>");
        for (int i = 0; i < data.runs().size(); i++) {
            final ReportData.Run r = data.runs().get(i);
            page.append(i == 0 ? "" : data.runs().size() == 2 ? " against " : ", ").append("<b>")
                    .append(Html.escape(r.name())).append("</b>: ").append(r.cells().size()).append(" cell(s) in ")
                    .append(r.points().size()).append(" sweep point(s)");
        }
        page.append("; generated ").append(Instant.now()).append(".</p>\n");
        if (data.gate() != null) {
            GateSection.verdict(page, data.gate());
            GateSection.metrics(page, data.gate(), data.runs().stream().map(ReportData.Run::name).toList());
        }
        sweepPoints(page, data);
        EXTRA_SECTIONS.forEach(s -> s.append(page, data));
        distributions(page, data);
        cells(page, data);
        TimelineSection.append(page, data);
        hooks(page, data);
        environment(page, data);
        page.append("</font>\n</body>\n</html>\n");
        return page.toString();
    }

    /** A run's name in bold in its charts' colour, so tables and charts read alike. */
    static String runName(final String name, final int run) {
        return "<font color=\"" + ComparisonCharts.color(run) + "\"><b>" + Html.escape(name) + "</b></font>";
    }

    private static void sweepPoints(final StringBuilder page, final ReportData data) {
        page.append("<h2 id=\"throughput-latency\">Throughput against latency</h2>\n<p>One point per sweep point (the "
                + "mean of its trials), joined in sweep order").append(data.comparison() ? "; one colour per run" : "")
                .append(".</p>\n");
        ComparisonCharts.pareto(data).forEach(page::append);
        if (ComparisonCharts.hasTrials(data)) {
            page.append("<h2 id=\"across-trials\">Across trials</h2>\n<p>Mean and 95% confidence interval (Student t) "
                    + "over each sweep point's trials").append(data.comparison() ? ", the runs side by side" : "")
                    .append(".</p>\n");
            ComparisonCharts.trials(data).forEach(page::append);
            intervalTable(page, data);
        }
    }

    /** The intervals of the across-trials charts as numbers. */
    private static void intervalTable(final StringBuilder page, final ReportData data) {
        page.append("<table class=\"intervals\" " + Html.TABLE + ">\n<tr><th>run</th>"
                + "<th>sweep point</th><th>trials</th>");
        for (final String[] m : ComparisonCharts.TRIAL_METRICS) {
            page.append("<th>").append(Html.escape(m[2])).append(", mean [95% interval]</th>");
        }
        page.append("</tr>\n");
        for (int r = 0; r < data.runs().size(); r++) {
            final ReportData.Run run = data.runs().get(r);
            for (final Map.Entry<String, List<ReportData.Cell>> g : run.points().entrySet()) {
                page.append("<tr><td>").append(runName(run.name(), r)).append("</td><td>")
                        .append(Html.escape(g.getKey())).append("</td><td align=\"right\">").append(g.getValue().size())
                        .append("</td>");
                for (final String[] m : ComparisonCharts.TRIAL_METRICS) {
                    final ComparisonCharts.Interval i = ComparisonCharts.Interval.of(g.getValue(), m[0], m[1], 0.95);
                    page.append("<td align=\"right\">").append(i == null ? "&ndash;" : Chart.num(i.mean()) + " ["
                            + Chart.num(i.low()) + ", " + Chart.num(i.high()) + "]").append("</td>");
                }
                page.append("</tr>\n");
            }
        }
        page.append("</table>\n");
    }

    private static void distributions(final StringBuilder page, final ReportData data) {
        final List<String> charts = ComparisonCharts.distributions(data);
        if (charts.isEmpty()) {
            return;
        }
        page.append("<h2 id=\"distributions\">Latency distributions</h2>\n<p>Each run's requests of a sweep point, "
                + "its trials together").append(data.comparison() ? "; one colour per run" : "")
                .append(". TTFT and ITL are measured on streamed runs only.</p>\n");
        charts.forEach(page::append);
    }

    private static void cells(final StringBuilder page, final ReportData data) {
        page.append("<h2 id=\"cells\">Cells</h2>\n<table class=\"cells\" " + Html.TABLE
                + ">\n<tr><th>run</th><th>cell</th><th>status</th><th>requests</th><th>errors</th>"
                + "<th>req/s</th><th>output tok/s</th><th>TTFT p50 ms</th><th>TTFT p99 ms</th><th>ITL avg ms</th>"
                + "<th>latency p99 ms</th></tr>\n");
        for (final ReportData.Cell c : data.cells()) {
            page.append("<tr><td>").append(Html.escape(c.run())).append("</td><td>").append(Html.escape(c.label()))
                    .append("</td><td>").append(Html.escape(c.outcome().status().wireName())).append("</td>");
            page.append("<td align=\"right\">").append(c.outcome().valid()).append("</td><td align=\"right\">")
                    .append(c.outcome().errors()).append("</td>");
            cellNum(page, c.stat("request_throughput", "avg"));
            cellNum(page, c.stat("output_token_throughput", "avg"));
            cellNum(page, c.stat("time_to_first_token", "p50"));
            cellNum(page, c.stat("time_to_first_token", "p99"));
            cellNum(page, c.stat("inter_token_latency", "avg"));
            cellNum(page, c.stat("request_latency", "p99"));
            page.append("</tr>\n");
        }
        page.append("</table>\n");
    }

    private static void cellNum(final StringBuilder page, final double v) {
        page.append("<td align=\"right\">").append(Double.isFinite(v) ? Chart.num(v) : "&ndash;").append("</td>");
    }

    private static void hooks(final StringBuilder page, final ReportData data) {
        page.append("<h2 id=\"hooks\">Control hooks</h2>\n");
        if (data.cells().stream().allMatch(c -> c.outcome().hooks().isEmpty())) {
            page.append("<p>No control hook ran (no KV-cache reset, no server profiler).</p>\n");
            return;
        }
        page.append("<table " + Html.TABLE + ">\n<tr><th>run</th><th>cell</th><th>hook"
                + "</th><th>origin</th><th>result</th><th>attempts</th><th>status</th><th>ms</th></tr>\n");
        for (final ReportData.Cell c : data.cells()) {
            for (final HookCall h : c.outcome().hooks()) {
                page.append("<tr><td>").append(Html.escape(c.run())).append("</td><td>").append(Html.escape(c.label()))
                        .append("</td><td>").append(Html.escape(h.hook()))
                        .append("</td><td>").append(Html.escape(h.origin())).append("</td><td>")
                        .append(Html.escape(h.result())).append("</td><td align=\"right\">").append(h.attempts())
                        .append("</td><td>").append(h.statusCode() == null ? "&ndash;" : h.statusCode())
                        .append("</td><td align=\"right\">").append(h.elapsedMillis()).append("</td></tr>\n");
            }
        }
        page.append("</table>\n");
    }

    /** Each run's environment fingerprint, one column per run; rows whose values differ are marked. */
    private static void environment(final StringBuilder page, final ReportData data) {
        final List<Map<String, String>> columns = new ArrayList<>();
        final Set<String> keys = new LinkedHashSet<>();
        for (final ReportData.Run run : data.runs()) {
            final Map<String, String> values = new TreeMap<>();
            run.cells().stream().map(ReportData.Cell::summary).filter(s -> s != null
                    && !s.environment().fingerprint().isEmpty()).findFirst().ifPresent(s -> s.environment()
                    .fingerprint().forEach((field, value) -> values.put(field, value == null ? "" : value)));
            keys.addAll(values.keySet());
            columns.add(values);
        }
        if (keys.isEmpty()) {
            return;
        }
        page.append("<h2 id=\"environment\">Environment</h2>\n");
        if (data.comparison()) {
            page.append("<p>Rows marked <b>differs</b> are not the same in every run: a change there can explain a "
                    + "change in the numbers.</p>\n");
        }
        page.append("<table class=\"environment\" " + Html.TABLE + ">\n<tr><th>field"
                + "</th>");
        for (int r = 0; r < data.runs().size(); r++) {
            page.append("<th>").append(runName(data.runs().get(r).name(), r)).append("</th>");
        }
        page.append(data.comparison() ? "<th></th>" : "").append("</tr>\n");
        for (final String key : keys.stream().sorted().toList()) {
            final boolean differs = columns.stream().map(c -> c.getOrDefault(key, "")).distinct().count() > 1;
            page.append(differs ? "<tr class=\"differs\">" : "<tr>").append("<td>").append(Html.escape(key))
                    .append("</td>");
            for (final Map<String, String> c : columns) {
                final String v = Html.escape(c.getOrDefault(key, ""));
                page.append("<td>").append(differs ? "<mark>" + v + "</mark>" : v).append("</td>");
            }
            page.append(data.comparison() ? differs ? "<td><b>differs</b></td>" : "<td></td>" : "").append("</tr>\n");
        }
        page.append("</table>\n");
    }
}
