package io.aiperf.engine.convergence;

import java.util.List;

/**
 * When repeated trials may stop early (upstream AIPerf's {@code --convergence-metric}, {@code -stat}, {@code -mode},
 * {@code -threshold}, and YAML's {@code multi_run.convergence}): after at least {@code minRuns} trials, as soon as
 * the statistic {@code stat} of {@code metric}, one value per trial, is stable by {@code mode}.
 *
 * @param mode {@link #CI_WIDTH} (the Student's t interval's width over the mean below the threshold), {@link #CV}
 *             (the trials' coefficient of variation below it) or {@link #DISTRIBUTION} (the latest trial's requests
 *             are not told apart from the earlier trials' by a two-sample Kolmogorov-Smirnov test: p above it)
 * @param threshold in (0, 1)
 * @param minRuns the fewest trials before a stop, at least 2
 */
public record ConvergenceSpec(String metric, String stat, String mode, double threshold, int minRuns) {
    public static final String CI_WIDTH = "ci_width";
    public static final String CV = "cv";
    public static final String DISTRIBUTION = "distribution";
    public static final List<String> MODES = List.of(CI_WIDTH, CV, DISTRIBUTION);
    public static final List<String> STATS = List.of("avg", "p50", "p90", "p95", "p99", "min", "max");
    public static final int DEFAULT_MIN_RUNS = 3;

    /** Each mode's own default threshold, as upstream's. */
    public static double defaultThreshold(final String mode) {
        return switch (mode) {
            case CV, DISTRIBUTION -> 0.05;
            default -> 0.10;
        };
    }

    /** The fewest trials before a stop when at most {@code maxRuns} run: upstream's min(min_runs, max). */
    public int minRuns(final int maxRuns) {
        return Math.min(minRuns, maxRuns);
    }
}
