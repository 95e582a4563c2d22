package io.aiperf.engine.ci;

import java.util.List;

/**
 * How to start the engine for a spec: the argument vector (no secrets), the directory its exports land in,
 * and the exit codes it may answer with.
 *
 * @param argv the full command, starting with the launcher
 * @param exportDir where the run's files appear, relative to the working directory
 */
public record EngineInvocation(List<String> argv, String exportDir) {
    /** Engine exit codes (src-docs/cli.md). */
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    public static final int GATE_UNSTABLE = 3;
    public static final int CANCELLED = 130;
}
