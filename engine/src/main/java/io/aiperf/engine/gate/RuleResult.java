package io.aiperf.engine.gate;

/**
 * One rule applied to one cell. Values in the metric's display unit; NaN when unknown.
 *
 * @param deltaPct relative change against the baseline, in percent (NaN without a usable baseline)
 * @param pValue Welch's t-test p-value when significance was tested, else NaN
 */
public record RuleResult(GateRule rule, String cell, String unit, double baseline, int baselineTrials,
                         double candidate, int candidateTrials, double delta, double deltaPct, double pValue,
                         double effectSize, Status status, String message) {
}
