package io.aiperf.engine.record;

import java.util.List;

/**
 * How one cell ended, as written to {@code cell_outcome.json} (control-hooks contract, outcome section).
 *
 * @param status completed, failed or cancelled
 * @param error what failed the cell, or null
 * @param cell which cell of the run this is
 * @param shard which shard of the cell this was, or null for a whole cell
 */
public record CellOutcome(String status, int exitCode, String artifactDir, List<HookCall> hooks,
                          List<String> warnings, String error, long requestsSent, long valid, long errors,
                          CellIdentity cell, ShardRun shard) {
    public static final String COMPLETED = "completed";
    public static final String FAILED = "failed";
    public static final String CANCELLED = "cancelled";
}
