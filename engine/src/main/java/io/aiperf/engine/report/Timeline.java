package io.aiperf.engine.report;

/**
 * A cell's requests over real time, in bins of one fixed width: 1 s, or for a window shorter than 10 s a round
 * width (1, 2 or 5 times a power of ten) of about a tenth of it, so a short cell still shows a shape. The send
 * rate is the requests started in a bin divided by the bin's width; in flight is the time-weighted mean of the
 * requests open during the bin. Time is seconds from the first request's start. Immutable.
 *
 * @param width the bin width, seconds
 * @param centers each bin's middle, seconds from the start
 * @param sentPerSecond requests started per second, per bin
 * @param inFlight mean requests in flight, per bin
 */
record Timeline(double width, double[] centers, double[] sentPerSecond, double[] inFlight) {
    private static final long SECOND = 1_000_000_000L;
    /** More bins than this (a run of hours) widen the bins, so a chart stays a few kilobytes. */
    private static final int MAX_BINS = 600;

    /** @param starts request start times, epoch ns; {@code ends} the matching end times */
    static Timeline of(final long[] starts, final long[] ends) {
        long t0 = Long.MAX_VALUE;
        long t1 = Long.MIN_VALUE;
        for (int i = 0; i < starts.length; i++) {
            t0 = Math.min(t0, starts[i]);
            t1 = Math.max(t1, Math.max(ends[i], starts[i]));
        }
        if (starts.length == 0) {
            return new Timeline(1, new double[0], new double[0], new double[0]);
        }
        final long window = Math.max(1, t1 - t0);
        long width = window >= 10 * SECOND ? SECOND : roundWidth(window / 10.0);
        while (window / width >= MAX_BINS) {
            width = roundWidth(width * 2.0);
        }
        final int bins = (int) (window / width) + 1;
        final double[] centers = new double[bins];
        final double[] sent = new double[bins];
        final double[] inFlight = new double[bins];
        final double seconds = width / (double) SECOND;
        for (int i = 0; i < starts.length; i++) {
            final long start = starts[i] - t0;
            final long end = Math.max(start, ends[i] - t0);
            sent[(int) (start / width)] += 1 / seconds;
            for (int b = (int) (start / width); b < bins && (long) b * width < end; b++) {
                final long lo = Math.max(start, (long) b * width);
                final long hi = Math.min(end, (long) (b + 1) * width);
                inFlight[b] += Math.max(0, hi - lo) / (double) width;
            }
        }
        for (int b = 0; b < bins; b++) {
            centers[b] = (b + 0.5) * seconds;
        }
        return new Timeline(seconds, centers, sent, inFlight);
    }

    /** The smallest round width (1, 2 or 5 times a power of ten nanoseconds) of at least {@code ns}, at least 1 ms. */
    static long roundWidth(final double ns) {
        long step = 1_000_000L;
        while (true) {
            for (final int m : new int[] {1, 2, 5}) {
                if (step * m >= ns) {
                    return step * m;
                }
            }
            step *= 10;
        }
    }

    double peakSentPerSecond() {
        double max = 0;
        for (final double v : sentPerSecond) {
            max = Math.max(max, v);
        }
        return max;
    }
}
