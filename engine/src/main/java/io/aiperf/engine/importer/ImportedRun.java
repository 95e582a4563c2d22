package io.aiperf.engine.importer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One result of another tool, as a summary of this engine's shape.
 *
 * @param tool the tool that wrote it
 * @param cell the cell it belongs to ({@code base} for a file with one result)
 * @param summary metric tag to {@code {unit, avg, p50, ...}}, as in {@code profile_export_aiperf.json}
 * @param missing metrics of the catalogue the source does not measure
 */
public record ImportedRun(String tool, String cell, ObjectNode summary, List<String> missing) {
    /** The cell of a file with one result, as the gate names the cell of a run without sweep. */
    public static final String SINGLE_CELL = "base";
}
