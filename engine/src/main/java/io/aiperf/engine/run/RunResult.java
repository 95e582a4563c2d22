package io.aiperf.engine.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What a run of cells ended with, as its runner assembled it: the exit code, every cell's result in the order
 * they ran, and a capacity search's result, so a gate and a report that follow it read none of it back from disk.
 *
 * @param search the tree {@code search_result.json} was written from, or null when the run searched nothing
 * @param sweep the tree the sweep aggregate was written from, or null when the run swept nothing
 */
public record RunResult(int exitCode, List<CellResult> cells, JsonNode search, JsonNode sweep) {
    public RunResult {
        cells = List.copyOf(cells);
    }

    public RunResult(final int exitCode, final List<CellResult> cells, final JsonNode search) {
        this(exitCode, cells, search, null);
    }
}
