package io.aiperf.engine.ci;

/**
 * How far back in a job's history the CI looks, so a job with thousands of builds never loads them all: the trend
 * shows at most {@code trendBuilds} builds, the baseline search looks at most {@code baselineBuilds} builds back (a
 * baseline given by number is looked up directly).
 */
public record HistoryLimits(int trendBuilds, int baselineBuilds) {
    public static final int DEFAULT_TREND_BUILDS = 30;
    public static final int DEFAULT_BASELINE_BUILDS = 50;
    /** The system properties that change the limits on a Jenkins controller. */
    public static final String TREND_PROPERTY = "io.aiperf.jenkins.trendBuilds";
    public static final String BASELINE_PROPERTY = "io.aiperf.jenkins.baselineBuilds";

    /** The limits from two texts (e.g. system properties); a missing or invalid one keeps its default. */
    public static HistoryLimits of(final String trendBuilds, final String baselineBuilds) {
        return new HistoryLimits(positive(trendBuilds, DEFAULT_TREND_BUILDS),
                positive(baselineBuilds, DEFAULT_BASELINE_BUILDS));
    }

    private static int positive(final String text, final int fallback) {
        if (text == null || !text.trim().matches("\\d{1,6}")) {
            return fallback;
        }
        final int n = Integer.parseInt(text.trim());
        return n > 0 ? n : fallback;
    }
}
