package io.aiperf.engine.run;

import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.record.CellOutcome;

/**
 * How a cell ended, with the exit code each ending has (src-docs/cli.md). {@code cell_outcome.json} spells the
 * status as its wire name: bad input is a failed cell that exits 2, not 1.
 */
public enum CellStatus {
    COMPLETED(CellOutcome.COMPLETED, ExitCode.OK),
    FAILED(CellOutcome.FAILED, ExitCode.FAILED),
    /** Nothing to send, from the input alone (a shard without conversations). */
    BAD_INPUT(CellOutcome.FAILED, ExitCode.USAGE),
    CANCELLED(CellOutcome.CANCELLED, ExitCode.CANCELLED);

    private final String wireName;
    private final int exitCode;

    CellStatus(final String wireName, final int exitCode) {
        this.wireName = wireName;
        this.exitCode = exitCode;
    }

    /** As {@code cell_outcome.json} spells it: completed, failed or cancelled. */
    public String wireName() {
        return wireName;
    }

    public int exitCode() {
        return exitCode;
    }

    /** The status of an outcome, by its exit code (each code has one status). */
    public static CellStatus of(final CellOutcome outcome) {
        for (final CellStatus s : values()) {
            if (s.exitCode == outcome.exitCode() && s.wireName.equals(outcome.status())) {
                return s;
            }
        }
        throw new IllegalArgumentException("no cell status " + outcome.status() + " with exit code "
                + outcome.exitCode());
    }
}
