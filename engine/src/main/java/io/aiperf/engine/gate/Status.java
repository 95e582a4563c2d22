package io.aiperf.engine.gate;

/** The result of one rule on one cell, from best to worst. */
public enum Status {
    PASSED, INACTIVE, UNSTABLE, FAILED;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
