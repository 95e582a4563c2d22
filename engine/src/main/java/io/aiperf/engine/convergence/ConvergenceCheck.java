package io.aiperf.engine.convergence;

import io.aiperf.engine.math.SpecialFunctions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Judges trials so far against a {@link ConvergenceSpec} (src-docs/capacity.md, "Convergence"): ci_width compares
 * the two-sided Student's t interval of the trials' mean, at the confidence level, divided by the mean; cv the
 * sample standard deviation over the mean; distribution the Kolmogorov-Smirnov p-value of the latest trial's requests
 * against all earlier trials' requests. Stateless.
 */
public final class ConvergenceCheck {
    private ConvergenceCheck() {
    }

    /**
     * @param values each trial's statistic (NaN where a trial had none: it is left out)
     * @param requests each trial's per-request values of the metric (used by distribution mode; an empty array where
     *                 a trial's records are missing)
     * @param maxRuns the most trials that may run
     */
    public static ConvergenceState check(final ConvergenceSpec spec, final List<Double> values,
                                         final List<double[]> requests, final double confidence, final int maxRuns) {
        final double[] v = values.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite).toArray();
        final int min = spec.minRuns(maxRuns);
        final double reached = switch (spec.mode()) {
            case ConvergenceSpec.CV -> cv(v);
            case ConvergenceSpec.DISTRIBUTION -> ksPValue(requests);
            default -> relativeCiWidth(v, confidence);
        };
        final boolean within = spec.mode().equals(ConvergenceSpec.DISTRIBUTION)
                ? reached > spec.threshold() : reached < spec.threshold();
        final boolean converged = values.size() >= min && Double.isFinite(reached) && within;
        final String measure = switch (spec.mode()) {
            case ConvergenceSpec.CV -> "coefficient of variation";
            case ConvergenceSpec.DISTRIBUTION -> "Kolmogorov-Smirnov p (latest trial vs the earlier ones)";
            default -> String.format(Locale.ROOT, "%.0f%% interval width / mean", 100 * confidence);
        };
        final String detail = String.format(Locale.ROOT, "%s %s, %s: %s %s %s %s after %d of at most %d trials%s",
                spec.metric(), spec.stat(), spec.mode(), measure, Double.isFinite(reached)
                        ? String.format(Locale.ROOT, "%.4f", reached) : "not measurable yet",
                spec.mode().equals(ConvergenceSpec.DISTRIBUTION) ? (within ? ">" : "<=") : (within ? "<" : ">="),
                num(spec.threshold()) + "", values.size(), maxRuns,
                converged ? ": converged" : values.size() < min ? " (at least " + min + " before a stop)" : "");
        return new ConvergenceState(spec, List.copyOf(values), reached, converged, detail);
    }

    /** (2 t s / sqrt(n)) / |mean|; NaN below two values, infinite at a mean of 0. */
    static double relativeCiWidth(final double[] v, final double confidence) {
        if (v.length < 2) {
            return Double.NaN;
        }
        final double mean = mean(v);
        final double t = SpecialFunctions.studentTQuantile(1 - (1 - confidence) / 2, v.length - 1);
        final double width = 2 * t * std(v, mean) / Math.sqrt(v.length);
        return mean == 0 ? Double.POSITIVE_INFINITY : width / Math.abs(mean);
    }

    /** Sample standard deviation over |mean|; NaN below two values. */
    static double cv(final double[] v) {
        if (v.length < 2) {
            return Double.NaN;
        }
        final double mean = mean(v);
        return mean == 0 ? Double.POSITIVE_INFINITY : std(v, mean) / Math.abs(mean);
    }

    /** The latest trial's requests against the earlier trials' pooled; NaN without two trials with requests. */
    static double ksPValue(final List<double[]> requests) {
        if (requests.size() < 2 || requests.get(requests.size() - 1).length == 0) {
            return Double.NaN;
        }
        final List<double[]> earlier = new ArrayList<>(requests.subList(0, requests.size() - 1));
        final double[] pooled = earlier.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
        return pooled.length == 0 ? Double.NaN
                : KolmogorovSmirnov.pValue(requests.get(requests.size() - 1), pooled);
    }

    private static double mean(final double[] v) {
        double s = 0;
        for (final double d : v) {
            s += d;
        }
        return s / v.length;
    }

    private static double std(final double[] v, final double mean) {
        double ss = 0;
        for (final double d : v) {
            ss += (d - mean) * (d - mean);
        }
        return Math.sqrt(ss / (v.length - 1));
    }

    private static String num(final double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
