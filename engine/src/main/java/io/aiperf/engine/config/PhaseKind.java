package io.aiperf.engine.config;

/** Whether a phase's records are measured (reference §2.3). */
public enum PhaseKind {
    WARMUP, PROFILING;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
