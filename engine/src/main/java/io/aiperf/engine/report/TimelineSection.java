package io.aiperf.engine.report;

import java.util.List;
import java.util.Locale;

/**
 * The timelines of a report (src-docs/report.md): per cell, up to twelve shared between the runs, the requests sent
 * per second and the number in flight over real time, then on streamed runs each request's TTFT and ITL at the time
 * it was sent. Stateless.
 */
final class TimelineSection {
    private static final int MAX_TIMELINES = 12;

    private TimelineSection() {
    }

    static void append(final StringBuilder page, final ReportData data) {
        boolean any = false;
        int drawn = 0;
        final int perRun = Math.max(1, MAX_TIMELINES / data.runs().size());
        for (int r = 0; r < data.runs().size(); r++) {
            final List<ReportData.Cell> cells = data.runs().get(r).cells();
            for (final ReportData.Cell c : cells.subList(0, Math.min(cells.size(), perRun))) {
                final RecordScan scan = c.records().get();
                if (scan.starts().length == 0) {
                    continue;
                }
                if (!any) {
                    page.append("<h2 id=\"timelines\">Timelines</h2>\n<p>Requests sent per second (left axis) and the "
                            + "mean number in flight (right axis), in bins of a fixed width (1 s; shorter for a "
                            + "short cell), from the cell's first request; on streamed runs, then each request's TTFT "
                            + "and ITL at the time it was sent.</p>\n");
                    any = true;
                }
                final Timeline t = Timeline.of(scan.starts(), scan.ends());
                final String name = (data.comparison() ? c.run() + " " : "") + c.label();
                final Chart chart = new Chart("timeline-" + r + "-" + c.label().replaceAll("[^A-Za-z0-9_-]", "_"),
                        name + ": requests over time (bins of " + Chart.num(t.width()) + " s)",
                        "seconds from the first request", "requests sent per second")
                        .rightAxis("requests in flight").fit(t.centers(), t.sentPerSecond()).fitRight(t.inFlight());
                chart.series("sent per second").line(t.centers(), t.sentPerSecond(), Chart.PALETTE[0],
                        "timeline-send-rate");
                chart.series("in flight").line(t.centers(), t.inFlight(), Chart.PALETTE[1], "timeline-in-flight",
                        0, true);
                chart.key("sent/s (left), peak " + Chart.num(t.peakSentPerSecond()), Chart.PALETTE[0], 0)
                        .key("in flight (right)", Chart.PALETTE[1], 0);
                page.append(chart.svg().replaceFirst("<svg ", "<svg data-peak-rate=\""
                        + String.format(Locale.ROOT, "%.3f", t.peakSentPerSecond()) + "\" "));
                final String slug = r + "-" + c.label().replaceAll("[^A-Za-z0-9_-]", "_");
                page.append(LatencyOverTime.ttft("ttft-time-" + slug, name, scan, ComparisonCharts.color(r)));
                page.append(LatencyOverTime.itl("itl-time-" + slug, name, scan, ComparisonCharts.color(r)));
                drawn++;
            }
        }
        if (drawn > 0 && drawn < data.cells().size()) {
            page.append("<p>").append(drawn).append(" of ").append(data.cells().size())
                    .append(" cells are drawn: the first of each run.</p>\n");
        }
    }
}
