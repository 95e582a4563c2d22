package io.aiperf.engine.profile;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.run.CellResult;
import io.aiperf.engine.run.RunResult;
import io.aiperf.engine.sweep.CellPlan;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code --output-format json}: the run's summary on stdout, as its exports hold it (redacted as they are), taken
 * from the run in memory: nothing is read back. One cell: its {@code profile_export_aiperf.json}. Several: an object
 * with {@code cells} (each cell's summary by id) and, for a sweep, {@code sweep} (the sweep aggregate).
 */
final class SummaryOutput {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SummaryOutput() {
    }

    static void print(final List<CellPlan.Cell> cells, final RunResult ran, final Path dir, final String summaryName,
                      final PrintStream out, final PrintStream err) {
        final JsonNode doc;
        if (cells.size() == 1 && cells.get(0).identity().path().equals(".")) {
            doc = summaryOf(cells.get(0), ran);
            if (doc == null) {
                err.println("error: no JSON summary: " + dir.resolve(summaryName) + " was not written");
                return;
            }
        } else {
            final ObjectNode root = JSON.createObjectNode();
            final ObjectNode byId = root.putObject("cells");
            for (final CellPlan.Cell c : cells) {
                byId.set(c.identity().id(), summaryOf(c, ran));
            }
            if (ran.sweep() != null) {
                root.set("sweep", ran.sweep());
            }
            doc = root;
        }
        try {
            out.println(JSON.writeValueAsString(doc));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e); // a tree in memory: not expected
        }
        out.flush();
    }

    /** The summary the planned cell wrote, or null when it wrote none. */
    private static JsonNode summaryOf(final CellPlan.Cell cell, final RunResult ran) {
        return ran.cells().stream().filter(r -> r.outcome().cell() != null
                        && r.outcome().cell().path().equals(cell.identity().path()))
                .map(CellResult::summaryJson).filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }
}
