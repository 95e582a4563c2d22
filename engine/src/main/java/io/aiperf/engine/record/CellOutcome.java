package io.aiperf.engine.record;

import java.util.List;

/**
 * How one cell ended, as written to {@code cell_outcome.json} (control-hooks contract, outcome section).
 *
 * @param status how it ended, which also says its exit code
 * @param error what failed the cell, or null
 * @param cell which cell of the run this is
 * @param shard which shard of the cell this was, or null for a whole cell
 */
public record CellOutcome(CellStatus status, String artifactDir, List<HookCall> hooks, List<String> warnings,
                          String error, long requestsSent, long valid, long errors, CellIdentity cell,
                          ShardRun shard) {
    /** The exit code of the status. */
    public int exitCode() {
        return status.exitCode();
    }

    public boolean completed() {
        return status == CellStatus.COMPLETED;
    }
}
