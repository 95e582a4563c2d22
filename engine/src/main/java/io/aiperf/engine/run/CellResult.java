package io.aiperf.engine.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.summary.CellSummary;

/**
 * What one cell ended with: its outcome, as {@code cell_outcome.json} holds it, and what it measured.
 *
 * @param summary the summary {@code profile_export_aiperf.json} was written from, or null when the cell ended
 *                before its exports (cancelled while setting up, a hook failed...)
 * @param summaryJson the summary as its file holds it (redacted as written), for a reader in this process; null
 *                    when the file was not written
 */
public record CellResult(CellOutcome outcome, CellSummary summary, JsonNode summaryJson) {
    public CellResult(final CellOutcome outcome, final CellSummary summary) {
        this(outcome, summary, null);
    }

    public CellStatus status() {
        return outcome.status();
    }
}
