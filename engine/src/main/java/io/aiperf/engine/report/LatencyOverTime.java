package io.aiperf.engine.report;

/**
 * A cell's TTFT or ITL over time: one dot per request (its value against when it was sent, in seconds from the cell's
 * first such request), as upstream AIPerf's {@code aiperf plot} draws them, so a server that slows as its queue
 * fills, a warm-up or a stall shows where a percentile cannot. A cell of many requests draws an even sample of them,
 * so the page stays small. Stateless.
 */
final class LatencyOverTime {
    /** The most dots one chart draws. */
    static final int MAX_DOTS = 2000;

    private LatencyOverTime() {
    }

    /** Each request's TTFT; an empty string when the cell recorded none (a run without streaming). */
    static String ttft(final String id, final String name, final RecordScan scan, final String color) {
        return svg(id, name, "TTFT", "ttft-dot", scan.ttfts(), scan.ttftStarts(), color);
    }

    /** Each request's mean ITL; an empty string when the cell recorded none. */
    static String itl(final String id, final String name, final RecordScan scan, final String color) {
        return svg(id, name, "ITL", "itl-dot", scan.itls(), scan.itlStarts(), color);
    }

    private static String svg(final String id, final String name, final String metric, final String cssClass,
                              final double[] values, final long[] starts, final String color) {
        if (values.length == 0) {
            return "";
        }
        long first = Long.MAX_VALUE;
        for (final long s : starts) {
            first = Math.min(first, s);
        }
        final int stride = Math.max(1, (int) Math.ceil(values.length / (double) MAX_DOTS));
        final int n = (values.length + stride - 1) / stride;
        final double[] xs = new double[n];
        final double[] ys = new double[n];
        for (int i = 0; i < n; i++) {
            xs[i] = (starts[i * stride] - first) / 1e9;
            ys[i] = values[i * stride];
        }
        final Chart chart = new Chart(id, name + ": " + metric + " of each request over time"
                + (stride > 1 ? " (every " + stride + "th of " + values.length + ")" : ""),
                "seconds from the first request", metric + " (ms)").fit(xs, ys);
        for (int i = 0; i < n; i++) {
            chart.mark(xs[i], ys[i], color, cssClass, "");
        }
        chart.key(metric + " of a request", color, 0);
        return chart.svg();
    }
}
