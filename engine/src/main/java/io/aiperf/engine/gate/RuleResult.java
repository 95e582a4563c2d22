package io.aiperf.engine.gate;

/**
 * One rule applied to one cell. Values in the metric's display unit; NaN when unknown.
 *
 * @param deltaPct relative change against the baseline, in percent (NaN without a usable baseline)
 * @param pValue Welch's t-test p-value when significance was tested, else NaN
 * @param changeLowPct lower end of the confidence interval of the change, in percent: the requests' bootstrap with
 *                     one trial per side, Welch's with 2+ trials per side; NaN otherwise
 * @param changeHighPct upper end of it
 */
public record RuleResult(GateRule rule, String cell, String unit, double baseline, int baselineTrials,
                         double candidate, int candidateTrials, double delta, double deltaPct, double pValue,
                         double effectSize, Status status, String message, double changeLowPct,
                         double changeHighPct) {
    /** A result without an interval of the change. */
    public RuleResult(final GateRule rule, final String cell, final String unit, final double baseline,
                      final int baselineTrials, final double candidate, final int candidateTrials, final double delta,
                      final double deltaPct, final double pValue, final double effectSize, final Status status,
                      final String message) {
        this(rule, cell, unit, baseline, baselineTrials, candidate, candidateTrials, delta, deltaPct, pValue,
                effectSize, status, message, Double.NaN, Double.NaN);
    }

    /** This result with the interval of its change. */
    RuleResult withInterval(final double lowPct, final double highPct) {
        return new RuleResult(rule, cell, unit, baseline, baselineTrials, candidate, candidateTrials, delta, deltaPct,
                pValue, effectSize, status, message, lowPct, highPct);
    }

    /**
     * The candidate value at the rule's nearest limit for this baseline (the bound a chart draws), or NaN without
     * one: a relative limit needs a baseline value.
     */
    public double limitValue() {
        final GateRule r = rule;
        if (r.max() != null) {
            return r.max();
        }
        if (r.min() != null) {
            return r.min();
        }
        if (!Double.isFinite(baseline) || baseline == 0) {
            return Double.NaN;
        }
        final double b = Math.abs(baseline);
        if (r.maxIncreasePct() != null) {
            return baseline + b * r.maxIncreasePct() / 100;
        }
        if (r.maxDecreasePct() != null) {
            return baseline - b * r.maxDecreasePct() / 100;
        }
        if (r.maxRegressionPct() != null) {
            return r.direction() == Direction.LOWER_IS_BETTER ? baseline + b * r.maxRegressionPct() / 100
                    : baseline - b * r.maxRegressionPct() / 100;
        }
        return Double.NaN;
    }
}
