package io.aiperf.engine.config;

/** The server profiler hook (control-hooks contract): started and stopped around profiling phases. */
public record ServerProfilerConfig(String startPath, String stopPath, double timeoutSeconds) {
    public static final String DEFAULT_START_PATH = "/start_profile";
    public static final String DEFAULT_STOP_PATH = "/stop_profile";
    public static final double DEFAULT_TIMEOUT_SECONDS = 30.0;

    public static ServerProfilerConfig defaults() {
        return new ServerProfilerConfig(DEFAULT_START_PATH, DEFAULT_STOP_PATH, DEFAULT_TIMEOUT_SECONDS);
    }
}
