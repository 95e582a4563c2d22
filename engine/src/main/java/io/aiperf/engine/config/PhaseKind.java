package io.aiperf.engine.config;

/** Whether a phase's records are measured (AIPerf's configuration docs). */
public enum PhaseKind {
    WARMUP, PROFILING;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
