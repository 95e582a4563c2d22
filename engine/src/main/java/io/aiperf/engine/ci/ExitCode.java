package io.aiperf.engine.ci;

/**
 * The engine's exit codes (src-docs/cli.md): one list for the command line, the cells, the sweeps and the CI
 * steps that read them. It lives in the {@code ci} package because the Jenkins plugin loads that package alone.
 */
public final class ExitCode {
    public static final int OK = 0;
    /** A cell failed, a hook failed, or the gate found a regression. */
    public static final int FAILED = 1;
    /** Bad input: nothing was sent. */
    public static final int USAGE = 2;
    /** The gate found only warnings. */
    public static final int GATE_UNSTABLE = 3;
    /** The gate could not judge: a run was invalid, the environments differ, or the trials are too few. */
    public static final int GATE_INCONCLUSIVE = 4;
    /** Stopped by Ctrl-C (SIGINT); partial results were written. */
    public static final int CANCELLED = 130;
    /** Stopped by SIGTERM; partial results were written. */
    public static final int TERMINATED = 143;

    /** Whether the code says the user stopped the run (SIGINT or SIGTERM). */
    public static boolean stopped(final int code) {
        return code == CANCELLED || code == TERMINATED;
    }

    /** The code of a run the user stopped: 143 for SIGTERM, 130 for SIGINT. */
    public static int stopped(final boolean bySigterm) {
        return bySigterm ? TERMINATED : CANCELLED;
    }

    private ExitCode() {
    }
}
