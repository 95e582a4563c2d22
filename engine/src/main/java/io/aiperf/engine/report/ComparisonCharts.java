package io.aiperf.engine.report;

import static io.aiperf.engine.summary.GateResultCodec.BASELINE;
import static io.aiperf.engine.summary.GateResultCodec.CANDIDATE;
import static io.aiperf.engine.summary.GateResultCodec.CELL;
import static io.aiperf.engine.summary.GateResultCodec.CHANGE_CI_HIGH_PCT;
import static io.aiperf.engine.summary.GateResultCodec.CHANGE_CI_LOW_PCT;
import static io.aiperf.engine.summary.GateResultCodec.DELTA_PCT;
import static io.aiperf.engine.summary.GateResultCodec.LIMIT;
import static io.aiperf.engine.summary.GateResultCodec.LIMIT_VALUE;
import static io.aiperf.engine.summary.GateResultCodec.METRIC;
import static io.aiperf.engine.summary.GateResultCodec.RULES;
import static io.aiperf.engine.summary.GateResultCodec.STAT;
import static io.aiperf.engine.summary.GateResultCodec.STATUS;
import static io.aiperf.engine.summary.GateResultCodec.UNIT;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.math.SpecialFunctions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The charts that put the runs of a report side by side, each run its own series in its own colour (the baseline
 * blue, the candidate orange): the gate's metrics with their limits, throughput against latency per sweep point,
 * the across-trials means with their intervals, and the latency distributions. A report of one run draws the same
 * charts with one series. Stateless.
 */
final class ComparisonCharts {
    /** The metrics drawn across trials: tag, statistic, axis label. */
    static final String[][] TRIAL_METRICS = {{"request_throughput", "avg", "request throughput (requests/s)"},
        {"time_to_first_token", "p99", "TTFT p99 (ms)"}, {"request_latency", "p99", "request latency p99 (ms)"}};
    private static final int MAX_CDF_POINTS = 6;
    /** Cells whose records a run's distributions read at most: a big sweep's report stays within memory. */
    private static final int MAX_CDF_CELLS = 12;

    private ComparisonCharts() {
    }

    static String color(final int run) {
        return Chart.RUN_COLORS[run % Chart.RUN_COLORS.length];
    }

    /**
     * One chart per gated metric and statistic: per cell, the baseline's and the candidate's value, the
     * candidate's confidence interval of the change (around the baseline value times that change), and the limit
     * as a red dashed mark.
     */
    static List<String> gateCharts(final JsonNode gate, final List<String> runNames) {
        final Map<String, List<JsonNode>> byMetric = new LinkedHashMap<>();
        for (final JsonNode r : gate.path(RULES)) {
            if (r.path(BASELINE).isNumber() || r.path(CANDIDATE).isNumber()) {
                byMetric.computeIfAbsent(r.path(METRIC).asText() + " " + r.path(STAT).asText(),
                        k -> new ArrayList<>()).add(r);
            }
        }
        final String baseName = runNames.isEmpty() ? "baseline" : runNames.get(0);
        final String candName = runNames.size() < 2 ? "candidate" : runNames.get(1);
        final List<String> out = new ArrayList<>();
        int n = 0;
        for (final Map.Entry<String, List<JsonNode>> m : byMetric.entrySet()) {
            final List<String> cells = m.getValue().stream().map(r -> r.path(CELL).asText()).distinct()
                    .sorted(ReportData::natural).toList();
            final String unit = m.getValue().get(0).path(UNIT).asText("");
            final Chart chart = new Chart("gate-metric-" + n++, "Gate: " + m.getKey() + " per cell, with the limit",
                    "cell", m.getKey() + (unit.isEmpty() ? "" : " (" + unit + ")")).categories(cells);
            for (final JsonNode r : m.getValue()) {
                chart.fit(new double[0], new double[] {num(r, BASELINE), num(r, CANDIDATE), num(r, LIMIT_VALUE),
                    candidateBound(r, CHANGE_CI_LOW_PCT), candidateBound(r, CHANGE_CI_HIGH_PCT)});
            }
            for (final JsonNode r : m.getValue()) {
                final int x = cells.indexOf(r.path(CELL).asText());
                final double b = num(r, BASELINE);
                final double c = num(r, CANDIDATE);
                if (Double.isFinite(b)) {
                    chart.series(baseName).point(x - 0.12, b, color(0), "gate-baseline",
                            baseName + " " + r.path(CELL).asText() + ": " + Chart.num(b) + " " + unit, "");
                }
                if (Double.isFinite(c)) {
                    final String change = r.path(DELTA_PCT).isNumber()
                            ? String.format(java.util.Locale.ROOT, " (%+.1f%%)", r.path(DELTA_PCT).asDouble()) : "";
                    chart.series(candName).interval(x + 0.12, candidateBound(r, CHANGE_CI_LOW_PCT), c,
                            candidateBound(r, CHANGE_CI_HIGH_PCT), color(1), candName + " " + r.path(CELL).asText()
                                    + ": " + Chart.num(c) + " " + unit + change + ", " + r.path(STATUS).asText());
                }
                final double limit = num(r, LIMIT_VALUE);
                if (Double.isFinite(limit)) {
                    chart.series("limit").limit(x, 0.3, limit, "limit " + r.path(LIMIT).asText() + ": "
                            + Chart.num(limit) + " " + unit);
                }
            }
            chart.key(baseName, color(0), 0).key(candName + ", interval", color(1), 0)
                    .key("limit", Chart.LIMIT_COLOR, 1);
            out.add(chart.svg());
        }
        return out;
    }

    /** The baseline value moved by one end of the change's interval: where the candidate could be. */
    private static double candidateBound(final JsonNode r, final String pctField) {
        final double b = num(r, BASELINE);
        final double pct = num(r, pctField);
        return Math.max(0, b + Math.abs(b) * pct / 100); // no gated statistic is negative
    }

    private static double num(final JsonNode r, final String field) {
        return r.path(field).isNumber() ? r.path(field).asDouble() : Double.NaN;
    }

    private static double mean(final List<ReportData.Cell> group, final String metric, final String stat) {
        return group.stream().mapToDouble(c -> c.stat(metric, stat)).filter(Double::isFinite).average()
                .orElse(Double.NaN);
    }

    /**
     * Throughput against latency: per run, one point per sweep point (the mean of its trials), joined in sweep
     * order; the x axis is TTFT p99 and ITL for streamed runs, request latency p99 otherwise.
     */
    static List<String> pareto(final ReportData data) {
        final boolean streaming = data.cells().stream()
                .anyMatch(c -> Double.isFinite(c.stat("time_to_first_token", "p99")));
        final String[][] axes = streaming
                ? new String[][] {{"time_to_first_token", "p99", "TTFT p99 (ms)"}, {"inter_token_latency", "avg", "ITL avg (ms)"}}
                : new String[][] {{"request_latency", "p99", "request latency p99 (ms)"}};
        final List<String> out = new ArrayList<>();
        for (final String[] axis : axes) {
            final Chart chart = new Chart("pareto-" + axis[0], "Request throughput against " + axis[2], axis[2],
                    "requests/s");
            final List<double[][]> series = new ArrayList<>();
            for (final ReportData.Run run : data.runs()) {
                final List<List<ReportData.Cell>> points = new ArrayList<>(run.points().values());
                final double[] xs = points.stream().mapToDouble(g -> mean(g, axis[0], axis[1])).toArray();
                final double[] ys = points.stream().mapToDouble(g -> mean(g, "request_throughput", "avg")).toArray();
                chart.fit(xs, ys);
                series.add(new double[][] {xs, ys});
            }
            if (chart.empty()) {
                continue;
            }
            for (int r = 0; r < data.runs().size(); r++) {
                final ReportData.Run run = data.runs().get(r);
                final List<String> labels = new ArrayList<>(run.points().keySet());
                final double[] xs = series.get(r)[0];
                final double[] ys = series.get(r)[1];
                chart.series(run.name());
                if (xs.length > 1) {
                    chart.line(xs, ys, color(r), "pareto-line");
                }
                for (int i = 0; i < xs.length; i++) {
                    if (Double.isFinite(xs[i]) && Double.isFinite(ys[i])) {
                        chart.point(xs[i], ys[i], color(r), "pareto-point", run.name() + " " + labels.get(i) + ": "
                                + Chart.num(ys[i]) + " requests/s at " + Chart.num(xs[i]) + " ms", labels.get(i));
                    }
                }
                chart.key(run.name(), color(r), 0);
            }
            out.add(chart.svg());
        }
        return out;
    }

    /** A mean and its Student t interval over a point's trials, or null with fewer than two values. */
    record Interval(double low, double mean, double high, int trials) {
        static Interval of(final List<ReportData.Cell> group, final String metric, final String stat,
                           final double confidence) {
            final double[] v = group.stream().mapToDouble(c -> c.stat(metric, stat)).filter(Double::isFinite)
                    .toArray();
            if (v.length < 2) {
                return null;
            }
            final double mean = Arrays.stream(v).average().orElse(Double.NaN);
            final double sd = Math.sqrt(Arrays.stream(v).map(d -> (d - mean) * (d - mean)).sum() / (v.length - 1));
            final double half = SpecialFunctions.studentTQuantile(1 - (1 - confidence) / 2, v.length - 1) * sd
                    / Math.sqrt(v.length);
            return new Interval(Math.max(0, mean - half), mean, mean + half, v.length); // none of these is negative
        }
    }

    /** Whether any sweep point of any run has two or more trials. */
    static boolean hasTrials(final ReportData data) {
        return data.runs().stream().anyMatch(r -> r.points().values().stream().anyMatch(g -> g.size() > 1));
    }

    /** Per metric: per sweep point, each run's mean and 95% interval side by side. */
    static List<String> trials(final ReportData data) {
        final List<String> out = new ArrayList<>();
        final List<String> points = data.points();
        final int runs = data.runs().size();
        for (final String[] m : TRIAL_METRICS) {
            final Chart chart = new Chart("ci-" + m[0], m[2] + ", mean and 95% interval", "sweep point", m[2])
                    .categories(points);
            final List<Object[]> bars = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                final ReportData.Run run = data.runs().get(r);
                for (final Map.Entry<String, List<ReportData.Cell>> g : run.points().entrySet()) {
                    final Interval i = Interval.of(g.getValue(), m[0], m[1], 0.95);
                    if (i != null) {
                        final double x = points.indexOf(g.getKey()) + (runs == 1 ? 0 : (r - (runs - 1) / 2.0) * 0.2);
                        bars.add(new Object[] {r, x, i, g.getKey()});
                        chart.fit(new double[0], new double[] {i.low(), i.high()});
                    }
                }
            }
            if (bars.isEmpty()) {
                continue;
            }
            for (final Object[] b : bars) {
                final int r = (int) b[0];
                final Interval i = (Interval) b[2];
                final String name = data.runs().get(r).name();
                chart.series(name).interval((double) b[1], i.low(), i.mean(), i.high(), color(r), name + " " + b[3]
                        + ": " + Chart.num(i.mean()) + " [" + Chart.num(i.low()) + ", " + Chart.num(i.high())
                        + "] over " + i.trials() + " trials");
            }
            for (int r = 0; r < runs; r++) {
                chart.key(data.runs().get(r).name(), color(r), 0);
            }
            out.add(chart.svg());
        }
        return out;
    }

    /**
     * The cumulative distributions of TTFT, ITL and request latency: per run and sweep point, its trials' requests
     * pooled (one line); the colour is the run's, each sweep point its own dash pattern (the first solid).
     */
    static List<String> distributions(final ReportData data) {
        final String[][] metrics = {{"ttft", "TTFT (ms)"}, {"itl", "ITL (ms)"}, {"latency", "request latency (ms)"}};
        final List<String> out = new ArrayList<>();
        for (final String[] m : metrics) {
            final Chart chart = new Chart("cdf-" + m[0], m[1] + ", cumulative distribution", m[1],
                    "share of requests").share();
            final List<Object[]> lines = new ArrayList<>();
            for (int r = 0; r < data.runs().size(); r++) {
                final ReportData.Run run = data.runs().get(r);
                int drawn = 0;
                int read = 0;
                for (final Map.Entry<String, List<ReportData.Cell>> g : run.points().entrySet()) {
                    if (drawn == MAX_CDF_POINTS || read >= MAX_CDF_CELLS) {
                        break;
                    }
                    final List<ReportData.Cell> cells = g.getValue().subList(0,
                            Math.min(g.getValue().size(), MAX_CDF_CELLS - read));
                    read += cells.size();
                    final double[] v = cells.stream().flatMapToDouble(c -> Arrays.stream(values(c, m[0])))
                            .sorted().toArray();
                    if (v.length == 0) {
                        continue;
                    }
                    chart.fit(new double[] {v[0], v[v.length - 1]}, new double[] {0, 1});
                    lines.add(new Object[] {r, g.getKey(), v, drawn++});
                }
            }
            if (lines.isEmpty()) {
                continue;
            }
            for (final Object[] l : lines) {
                final int r = (int) l[0];
                final double[] v = (double[]) l[2];
                final int n = Math.min(v.length, 300);
                final double[] xs = new double[n];
                final double[] ys = new double[n];
                for (int i = 0; i < n; i++) {
                    final int at = n == 1 ? 0 : (int) Math.round((double) i * (v.length - 1) / (n - 1));
                    xs[i] = v[at];
                    ys[i] = (at + 1.0) / v.length;
                }
                final String name = data.runs().get(r).name() + " " + l[1];
                chart.series(data.runs().get(r).name()).line(xs, ys, color(r), "cdf-line", (int) l[3], false);
                chart.key(name, color(r), (int) l[3]);
            }
            out.add(chart.svg());
        }
        return out;
    }

    private static double[] values(final ReportData.Cell c, final String which) {
        final RecordScan s = c.records().get();
        return switch (which) {
            case "ttft" -> s.ttfts();
            case "itl" -> s.itls();
            default -> s.latencies();
        };
    }
}
