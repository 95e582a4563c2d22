package io.aiperf.engine.gate;

/**
 * The result of one rule on one cell, from best to worst. INCONCLUSIVE: the measurement cannot support a verdict
 * (src-docs/validity.md); it outranks UNSTABLE so a broken run never passes as a warning, and ranks below FAILED so a
 * valid failure elsewhere still fails.
 */
public enum Status {
    PASSED, INACTIVE, UNSTABLE, INCONCLUSIVE, FAILED;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
