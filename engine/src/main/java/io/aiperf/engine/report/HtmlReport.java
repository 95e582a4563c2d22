package io.aiperf.engine.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.OutcomeJsonReader;
import io.aiperf.engine.export.OutcomeJsonWriter;
import io.aiperf.engine.math.SpecialFunctions;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.HookCall;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code report.html} (src-docs/report.md): one self-contained page for one or more run directories, readable at a
 * glance: a table of the cells, the Pareto curves of throughput against TTFT p99 and ITL per sweep point, the
 * confidence intervals across trials, each cell's latency distribution (CDF) and timeline of requests in flight and
 * send rate, the control-hook outcome of each cell and the gate's table when there is one. No script, no style
 * sheet, no fetch: inline SVG with presentation attributes, so it renders under the Content-Security-Policy Jenkins
 * applies to archived files, in light and dark schemes. Stateless.
 */
public final class HtmlReport {
    /** The report's file name, next to a run's aggregates. */
    public static final String FILE = "report.html";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_CELLS_DRAWN = 12;

    private HtmlReport() {
    }

    /** One cell as the report shows it. */
    record Cell(String id, String group, int trial, CellOutcome outcome, JsonNode summary,
                java.util.function.Supplier<RecordScan> records) {
        double stat(final String metric, final String stat) {
            final JsonNode v = summary == null ? null : summary.path(metric).path(stat);
            return v != null && v.isNumber() ? v.asDouble() : Double.NaN;
        }
    }

    /** Builds the page for the cells under {@code dirs} (found by their cell_outcome.json). */
    public static String html(final List<Path> dirs, final ExportNames names) {
        final List<Cell> cells = new ArrayList<>();
        final java.util.Set<Path> seen = new java.util.HashSet<>();
        JsonNode gate = null;
        for (final Path dir : dirs) {
            for (final Path f : files(dir, OutcomeJsonWriter.FILE)) {
                // A directory given twice, or one inside another (a gate's output in its candidate), is one set of
                // cells: each cell once, or a sweep point's trials count twice and its intervals look too tight.
                if (seen.add(f.toAbsolutePath().normalize())) {
                    cells.add(cell(f, names));
                }
            }
            for (final Path f : files(dir, io.aiperf.engine.gate.GateReports.JSON_FILE)) {
                gate = read(f);
            }
        }
        cells.sort(Comparator.comparingInt((Cell c) -> c.outcome().cell().index()).thenComparing(Cell::id));
        final StringBuilder page = new StringBuilder(64 * 1024);
        page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"color-scheme\" content=\"light dark\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>AIPerf (Java) report</title>\n</head>\n<body>\n")
                .append("<h1>AIPerf (Java) report</h1>\n<p>").append(cells.size()).append(" cell(s) from ")
                .append(Html.escape(dirs.stream().map(Path::toString).distinct().toList().toString())).append("; generated ")
                .append(Instant.now()).append(".</p>\n");
        CapacitySection.append(page, dirs);
        table(page, cells);
        pareto(page, cells);
        confidence(page, cells);
        distributions(page, cells);
        timelines(page, cells);
        hooks(page, cells);
        if (gate != null) {
            gateTable(page, gate);
        }
        page.append("</body>\n</html>\n");
        return page.toString();
    }

    private static Cell cell(final Path outcomeFile, final ExportNames names) {
        final Path dir = outcomeFile.getParent();
        final CellOutcome o;
        try {
            o = OutcomeJsonReader.read(outcomeFile, dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        final Path summary = dir.resolve(names.summaryJson());
        final String group = o.cell().variation() != null ? o.cell().variation() : o.cell().id();
        return new Cell(o.cell().id(), group, o.cell().trial(), o,
                Files.isRegularFile(summary) ? read(summary) : null, once(dir.resolve(names.recordsJsonl())));
    }

    private static void table(final StringBuilder page, final List<Cell> cells) {
        page.append("<h2>Cells</h2>\n<table border=\"1\" cellpadding=\"4\" cellspacing=\"0\">\n<tr><th>cell</th>"
                + "<th>status</th><th>requests</th><th>errors</th><th>req/s</th><th>output tok/s</th>"
                + "<th>TTFT p50 ms</th><th>TTFT p99 ms</th><th>ITL avg ms</th><th>latency p99 ms</th></tr>\n");
        for (final Cell c : cells) {
            page.append("<tr><td>").append(Html.escape(c.id())).append("</td><td>")
                    .append(Html.escape(c.outcome().status())).append("</td>");
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

    /** The cells of each sweep point (or each cell, without a sweep), in order. */
    private static Map<String, List<Cell>> groups(final List<Cell> cells) {
        final Map<String, List<Cell>> out = new LinkedHashMap<>();
        cells.forEach(c -> out.computeIfAbsent(c.group(), k -> new ArrayList<>()).add(c));
        return out;
    }

    private static double mean(final List<Cell> group, final String metric, final String stat) {
        return group.stream().mapToDouble(c -> c.stat(metric, stat)).filter(Double::isFinite).average()
                .orElse(Double.NaN);
    }

    private static void pareto(final StringBuilder page, final List<Cell> cells) {
        final Map<String, List<Cell>> groups = groups(cells);
        page.append("<h2>Throughput against latency</h2>\n<p>One point per sweep point (the mean of its trials); "
                + "the line joins the points no other beats on both axes.</p>\n");
        final boolean streaming = cells.stream().anyMatch(c -> Double.isFinite(c.stat("time_to_first_token", "p99")));
        final String[][] axes = streaming
                ? new String[][] {{"time_to_first_token", "p99", "TTFT p99 (ms)"}, {"inter_token_latency", "avg", "ITL avg (ms)"}}
                : new String[][] {{"request_latency", "p99", "request latency p99 (ms)"}};
        for (final String[] axis : axes) {
            final List<String> labels = new ArrayList<>(groups.keySet());
            final double[] xs = new double[labels.size()];
            final double[] ys = new double[labels.size()];
            for (int i = 0; i < labels.size(); i++) {
                xs[i] = mean(groups.get(labels.get(i)), axis[0], axis[1]);
                ys[i] = mean(groups.get(labels.get(i)), "request_throughput", "avg");
            }
            final Chart chart = new Chart("pareto-" + axis[0], "Request throughput against " + axis[2], axis[2],
                    "requests/s").fit(xs, ys);
            if (chart.empty()) {
                continue;
            }
            final Integer[] order = new Integer[xs.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, Comparator.comparingDouble(i -> xs[i]));
            final List<double[]> front = new ArrayList<>();
            double best = Double.NEGATIVE_INFINITY;
            for (final int i : order) {
                if (Double.isFinite(xs[i]) && ys[i] > best) {
                    front.add(new double[] {xs[i], ys[i]});
                    best = ys[i];
                }
            }
            chart.line(front.stream().mapToDouble(p -> p[0]).toArray(), front.stream().mapToDouble(p -> p[1]).toArray(),
                    Chart.PALETTE[9], "pareto-front");
            for (int i = 0; i < xs.length; i++) {
                if (Double.isFinite(xs[i]) && Double.isFinite(ys[i])) {
                    chart.point(xs[i], ys[i], Chart.PALETTE[i % Chart.PALETTE.length], "pareto-point", labels.get(i));
                }
            }
            page.append(chart.svg());
        }
    }

    private static void confidence(final StringBuilder page, final List<Cell> cells) {
        final Map<String, List<Cell>> groups = groups(cells);
        if (groups.values().stream().noneMatch(g -> g.size() > 1)) {
            return;
        }
        page.append("<h2>Across trials</h2>\n<p>Mean and 95% confidence interval (Student t) over each point's "
                + "trials.</p>\n");
        for (final String[] m : new String[][] {{"request_throughput", "avg", "request throughput (requests/s)"},
            {"time_to_first_token", "p99", "TTFT p99 (ms)"}, {"request_latency", "p99", "request latency p99 (ms)"}}) {
            final Chart chart = new Chart("ci-" + m[0], m[2] + ", mean and 95% CI", "sweep point", m[2]);
            final List<double[]> bars = new ArrayList<>();
            final List<String> labels = new ArrayList<>();
            int x = 0;
            for (final Map.Entry<String, List<Cell>> g : groups.entrySet()) {
                final double[] v = g.getValue().stream().mapToDouble(c -> c.stat(m[0], m[1])).filter(Double::isFinite)
                        .toArray();
                x++;
                if (v.length < 2) {
                    continue;
                }
                final double mean = Arrays.stream(v).average().orElse(Double.NaN);
                final double sd = Math.sqrt(Arrays.stream(v).map(d -> (d - mean) * (d - mean)).sum() / (v.length - 1));
                final double half = SpecialFunctions.studentTQuantile(0.975, v.length - 1) * sd / Math.sqrt(v.length);
                bars.add(new double[] {x, Math.max(0, mean - half), mean, mean + half}); // no metric here is negative
                labels.add(g.getKey());
            }
            if (bars.isEmpty()) {
                continue;
            }
            chart.fit(bars.stream().mapToDouble(b -> b[0]).toArray(), bars.stream().flatMapToDouble(
                    b -> Arrays.stream(new double[] {b[1], b[3]})).toArray());
            for (int i = 0; i < bars.size(); i++) {
                final double[] b = bars.get(i);
                chart.interval(b[0], b[1], b[2], b[3], Chart.PALETTE[i % Chart.PALETTE.length], labels.get(i));
            }
            page.append(chart.svg());
        }
    }

    private static void distributions(final StringBuilder page, final List<Cell> cells) {
        final Chart chart = new Chart("cdf-latency", "Request latency, cumulative distribution per cell",
                "request latency (ms)", "share of requests");
        final List<double[]> series = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        for (final Cell c : cells.subList(0, Math.min(cells.size(), MAX_CELLS_DRAWN))) {
            final double[] v = c.records().get().latencies().clone();
            if (v.length == 0) {
                continue;
            }
            Arrays.sort(v);
            series.add(v);
            names.add(c.id());
            chart.fit(new double[] {v[0], v[v.length - 1]}, new double[] {0, 1});
        }
        if (series.isEmpty()) {
            return;
        }
        page.append("<h2>Latency distributions</h2>\n");
        for (int s = 0; s < series.size(); s++) {
            final double[] v = series.get(s);
            final int n = Math.min(v.length, 300);
            final double[] xs = new double[n];
            final double[] ys = new double[n];
            for (int i = 0; i < n; i++) {
                final int at = n == 1 ? 0 : (int) Math.round((double) i * (v.length - 1) / (n - 1));
                xs[i] = v[at];
                ys[i] = (at + 1.0) / v.length;
            }
            chart.line(xs, ys, Chart.PALETTE[s % Chart.PALETTE.length], "cdf-line");
        }
        chart.legend(names);
        page.append(chart.svg());
        if (cells.size() > MAX_CELLS_DRAWN) {
            page.append("<p>The first ").append(MAX_CELLS_DRAWN).append(" cells are drawn.</p>\n");
        }
    }

    private static void timelines(final StringBuilder page, final List<Cell> cells) {
        boolean any = false;
        for (final Cell c : cells.subList(0, Math.min(cells.size(), MAX_CELLS_DRAWN))) {
            final RecordScan scan = c.records().get();
            final long[] starts = scan.starts();
            final long[] ends = scan.ends();
            if (starts.length == 0) {
                continue;
            }
            if (!any) {
                page.append("<h2>Timelines</h2>\n<p>Requests in flight (mean per interval) and requests sent per "
                        + "second, over each cell's profiling window.</p>\n");
                any = true;
            }
            final long t0 = Arrays.stream(starts).min().orElse(0);
            final long t1 = Math.max(t0 + 1, Arrays.stream(ends).max().orElse(t0 + 1));
            final int bins = 60;
            final double width = Math.max(1, t1 - t0) / (double) bins;
            final double[] xs = new double[bins];
            final double[] inFlight = new double[bins];
            final double[] rate = new double[bins];
            for (int i = 0; i < starts.length; i++) {
                final long start = starts[i];
                final long end = ends[i];
                rate[(int) Math.min(bins - 1, (start - t0) / width)] += 1e9 / width;
                for (int b = (int) ((start - t0) / width); b < bins && t0 + b * width < end; b++) {
                    final double lo = Math.max(start, t0 + b * width);
                    final double hi = Math.min(end, t0 + (b + 1) * width);
                    inFlight[b] += Math.max(0, hi - lo) / width;
                }
            }
            for (int b = 0; b < bins; b++) {
                xs[b] = (b + 0.5) * width / 1e9;
            }
            final Chart chart = new Chart("timeline-" + c.id().replaceAll("[^A-Za-z0-9_-]", "_"), c.id()
                    + ": requests in flight and sent per second", "seconds into the window", "requests")
                    .fit(xs, inFlight).fit(xs, rate);
            chart.line(xs, inFlight, Chart.PALETTE[0], "timeline-in-flight");
            chart.line(xs, rate, Chart.PALETTE[1], "timeline-send-rate");
            chart.legend(List.of("in flight", "sent per second"));
            page.append(chart.svg());
        }
    }

    private static void hooks(final StringBuilder page, final List<Cell> cells) {
        page.append("<h2>Control hooks</h2>\n");
        if (cells.stream().allMatch(c -> c.outcome().hooks().isEmpty())) {
            page.append("<p>No control hook ran (no KV-cache reset, no server profiler).</p>\n");
            return;
        }
        page.append("<table border=\"1\" cellpadding=\"4\" cellspacing=\"0\">\n<tr><th>cell</th><th>hook</th>"
                + "<th>origin</th><th>result</th><th>attempts</th><th>status</th><th>ms</th></tr>\n");
        for (final Cell c : cells) {
            for (final HookCall h : c.outcome().hooks()) {
                page.append("<tr><td>").append(Html.escape(c.id())).append("</td><td>").append(Html.escape(h.hook()))
                        .append("</td><td>").append(Html.escape(h.origin())).append("</td><td>")
                        .append(Html.escape(h.result())).append("</td><td align=\"right\">").append(h.attempts())
                        .append("</td><td>").append(h.statusCode() == null ? "&ndash;" : h.statusCode())
                        .append("</td><td align=\"right\">").append(h.elapsedMillis()).append("</td></tr>\n");
            }
        }
        page.append("</table>\n");
    }

    private static void gateTable(final StringBuilder page, final JsonNode gate) {
        page.append("<h2>Gate: ").append(Html.escape(gate.path("verdict").asText())).append("</h2>\n")
                .append("<table border=\"1\" cellpadding=\"4\" cellspacing=\"0\">\n<tr><th>metric</th><th>stat</th>"
                        + "<th>cell</th><th>baseline</th><th>candidate</th><th>change</th><th>limit</th><th>p</th>"
                        + "<th>status</th><th>message</th></tr>\n");
        for (final JsonNode r : gate.path("rules")) {
            final String unit = r.path("unit").asText("").isEmpty() ? "" : " " + r.path("unit").asText();
            page.append("<tr><td>").append(Html.escape(r.path("metric").asText())).append("</td><td>")
                    .append(Html.escape(r.path("stat").asText())).append("</td><td>")
                    .append(Html.escape(r.path("cell").asText())).append("</td>");
            gateNumber(page, r.path("baseline"), unit);
            gateNumber(page, r.path("candidate"), unit);
            page.append("<td align=\"right\">").append(r.path("delta_pct").isNumber()
                    ? String.format(java.util.Locale.ROOT, "%+.1f%%", r.path("delta_pct").asDouble()) : "&ndash;");
            page.append("</td><td>").append(Html.escape(r.path("limit").asText())).append("</td><td align=\"right\">")
                    .append(r.path("p_value").isNumber()
                            ? String.format(java.util.Locale.ROOT, "%.3g", r.path("p_value").asDouble()) : "&ndash;")
                    .append("</td><td>")
                    .append(Html.escape(r.path("status").asText())).append("</td><td>")
                    .append(Html.escape(r.path("message").asText())).append("</td></tr>\n");
        }
        page.append("</table>\n");
    }

    private static void gateNumber(final StringBuilder page, final JsonNode v, final String unit) {
        page.append("<td align=\"right\">").append(v.isNumber() ? Html.escape(Chart.num(v.asDouble()) + unit)
                : "&ndash;").append("</td>");
    }

    /** A cell's records, read (in one pass) the first time a section asks for them. */
    private static java.util.function.Supplier<RecordScan> once(final Path file) {
        return new java.util.function.Supplier<>() {
            private RecordScan scan;

            @Override
            public synchronized RecordScan get() {
                if (scan == null) {
                    scan = RecordScan.of(file);
                }
                return scan;
            }
        };
    }

    private static List<Path> files(final Path root, final String name) {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.getFileName().toString().equals(name)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode read(final Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            return null;
        }
    }
}
