package io.aiperf.engine.report;

import io.aiperf.engine.summary.GateResultCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code comparison.svg}: the report's comparison charts in one SVG document (the gate's metrics with their limits,
 * throughput against latency, the across-trials intervals), drawn by the same code as {@code report.html}, for pages
 * that show an image rather than a report (the Jenkins build page). Plain SVG, no script, no style. Stateless.
 */
final class ComparisonSvg {
    private static final int WIDTH = 820;
    private static final int HEIGHT = 320;
    private static final int HEADER = 24;

    private ComparisonSvg() {
    }

    static String svg(final ReportData data) {
        final List<String> charts = new ArrayList<>();
        if (data.gate() != null) {
            charts.addAll(ComparisonCharts.gateCharts(data.gate(), data.runs().stream().map(ReportData.Run::name)
                    .toList()));
        }
        charts.addAll(ComparisonCharts.pareto(data));
        if (ComparisonCharts.hasTrials(data)) {
            charts.addAll(ComparisonCharts.trials(data));
        }
        final int height = HEADER + Math.max(1, charts.size()) * HEIGHT;
        final StringBuilder sb = new StringBuilder();
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
                .append(height).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" font-family=\"sans-serif\" role=\"img\">\n<title>aiperf: ")
                .append(Html.escape(String.join(" against ", data.runs().stream().map(ReportData.Run::name).toList())))
                .append("</title>\n<text x=\"8\" y=\"16\" font-size=\"13\" font-weight=\"bold\" fill=\"currentColor\">");
        if (data.gate() != null) {
            sb.append("Verdict: ").append(Html.escape(data.gate().path(GateResultCodec.VERDICT).asText().toUpperCase(
                    java.util.Locale.ROOT))).append(" &#8212; ");
        }
        sb.append(Html.escape(String.join(" against ", data.runs().stream().map(ReportData.Run::name).toList())))
                .append("</text>\n");
        if (charts.isEmpty()) {
            sb.append("<text x=\"8\" y=\"48\" font-size=\"12\" fill=\"currentColor\">No results to compare.</text>\n");
        }
        for (int i = 0; i < charts.size(); i++) {
            sb.append(charts.get(i).replaceFirst("<svg ", "<svg x=\"0\" y=\"" + (HEADER + i * HEIGHT) + "\" "));
        }
        return sb.append("</svg>\n").toString();
    }
}
