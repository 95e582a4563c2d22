package io.aiperf.engine.run;

import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.summary.CellSummary;

/**
 * What one cell ended with: its outcome, as {@code cell_outcome.json} holds it, and what it measured.
 *
 * @param summary the summary {@code profile_export_aiperf.json} was written from, or null when the cell ended
 *                before its exports (cancelled while setting up, a hook failed...)
 */
public record CellResult(CellOutcome outcome, CellSummary summary) {
    public CellStatus status() {
        return outcome.status();
    }
}
