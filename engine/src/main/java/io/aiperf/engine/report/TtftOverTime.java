package io.aiperf.engine.report;

/**
 * A cell's TTFT over time: one dot per request (its TTFT against when it was sent, in seconds from the cell's first
 * request), as upstream AIPerf's {@code aiperf plot} draws it, so a server that slows as its queue fills, a warm-up
 * or a stall shows where a percentile cannot. A cell of many requests draws an even sample of them, so the page
 * stays small. Stateless.
 */
final class TtftOverTime {
    /** The most dots one chart draws. */
    static final int MAX_DOTS = 2000;

    private TtftOverTime() {
    }

    /** The chart's SVG, or an empty string when the cell recorded no TTFT (a run without streaming). */
    static String svg(final String id, final String name, final RecordScan scan, final String color) {
        final double[] ttfts = scan.ttfts();
        final long[] starts = scan.ttftStarts();
        if (ttfts.length == 0) {
            return "";
        }
        long first = Long.MAX_VALUE;
        for (final long s : starts) {
            first = Math.min(first, s);
        }
        final int stride = Math.max(1, (int) Math.ceil(ttfts.length / (double) MAX_DOTS));
        final int n = (ttfts.length + stride - 1) / stride;
        final double[] xs = new double[n];
        final double[] ys = new double[n];
        for (int i = 0; i < n; i++) {
            xs[i] = (starts[i * stride] - first) / 1e9;
            ys[i] = ttfts[i * stride];
        }
        final Chart chart = new Chart(id, name + ": TTFT of each request over time"
                + (stride > 1 ? " (every " + stride + "th of " + ttfts.length + ")" : ""),
                "seconds from the first request", "TTFT (ms)").fit(xs, ys);
        for (int i = 0; i < n; i++) {
            chart.mark(xs[i], ys[i], color, "ttft-dot", "");
        }
        chart.key("TTFT of a request", color, 0);
        return chart.svg();
    }
}
