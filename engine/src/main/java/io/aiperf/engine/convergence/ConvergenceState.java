package io.aiperf.engine.convergence;

import java.util.List;

/**
 * Where a series of trials stands against a {@link ConvergenceSpec}.
 *
 * @param values each trial's statistic, in trial order (NaN where a trial had none)
 * @param reached the mode's measure after the last trial: the interval's width over the mean, the coefficient of
 *                variation, or the Kolmogorov-Smirnov p-value; NaN before it can be measured
 * @param converged whether {@code reached} is within the threshold after at least the minimum of trials
 * @param detail one line that says so, for the console and the files
 */
public record ConvergenceState(ConvergenceSpec spec, List<Double> values, double reached, boolean converged,
                               String detail) {
}
