package io.aiperf.engine.record;

import io.aiperf.engine.ci.ExitCode;

/**
 * How a cell ended, with the exit code each ending has (src-docs/cli.md). {@code cell_outcome.json} and
 * {@code run_outcome.json} spell the status as its wire name: bad input is a failed cell that exits 2, not 1.
 */
public enum CellStatus {
    COMPLETED("completed", ExitCode.OK),
    FAILED("failed", ExitCode.FAILED),
    /** Nothing to send, from the input alone (a shard without conversations). */
    BAD_INPUT("failed", ExitCode.USAGE),
    CANCELLED("cancelled", ExitCode.CANCELLED),
    /** Cancelled by SIGTERM, as a CI system stops a job: the same status, its own exit code. */
    TERMINATED("cancelled", ExitCode.TERMINATED);

    private final String wireName;
    private final int exitCode;

    CellStatus(final String wireName, final int exitCode) {
        this.wireName = wireName;
        this.exitCode = exitCode;
    }

    /** As the outcome files spell it: completed, failed or cancelled. */
    public String wireName() {
        return wireName;
    }

    public int exitCode() {
        return exitCode;
    }

    /**
     * The status an outcome file wrote as {@code status} and {@code exit_code}; a pair no status has (a merge by an
     * older engine wrote "failed" with 130) is the first status of that name.
     *
     * @throws IllegalArgumentException when no status has the name
     */
    public static CellStatus of(final String wireName, final int exitCode) {
        CellStatus named = null;
        for (final CellStatus s : values()) {
            if (s.wireName.equals(wireName)) {
                if (s.exitCode == exitCode) {
                    return s;
                }
                named = named == null ? s : named;
            }
        }
        if (named == null) {
            throw new IllegalArgumentException("status: \"" + wireName + "\" is none of completed, failed, cancelled");
        }
        return named;
    }

    /**
     * The status of a cell made of parts (a cell merged from its shards, a run of several cells): failed when a
     * part failed (bad input first, its exit code being the higher), else cancelled when a part was, else
     * completed.
     */
    public static CellStatus worst(final Iterable<CellStatus> parts) {
        CellStatus worst = COMPLETED;
        for (final CellStatus s : parts) {
            if (rank(s) > rank(worst)) {
                worst = s;
            }
        }
        return worst;
    }

    private static int rank(final CellStatus s) {
        return switch (s) {
            case COMPLETED -> 0;
            case CANCELLED -> 1;
            case TERMINATED -> 2; // a part stopped by SIGTERM makes the whole exit as SIGTERM does
            case FAILED -> 3;
            case BAD_INPUT -> 4;
        };
    }
}
