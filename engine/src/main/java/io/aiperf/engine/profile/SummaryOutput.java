package io.aiperf.engine.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.sweep.CellPlan;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code --output-format json}: the run's summary on stdout, read back from the exports it wrote (so it is what
 * the files say, redacted as they are). One cell: its {@code profile_export_aiperf.json}. Several: an object with
 * {@code cells} (each cell's summary by id) and, for a sweep, {@code sweep} (the sweep aggregate).
 */
final class SummaryOutput {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SummaryOutput() {
    }

    static void print(final BenchmarkConfig config, final List<CellPlan.Cell> cells, final Path dir,
                      final PrintStream out, final PrintStream err) {
        final String summaryName = ExportNames.of(config.artifacts().prefix()).summaryJson();
        try {
            final JsonNode doc;
            if (cells.size() == 1 && cells.get(0).identity().path().equals(".")) {
                doc = read(dir.resolve(summaryName));
            } else {
                final ObjectNode root = JSON.createObjectNode();
                final ObjectNode byId = root.putObject("cells");
                for (final CellPlan.Cell c : cells) {
                    final Path summary = dir.resolve(c.identity().path()).resolve(summaryName);
                    byId.set(c.identity().id(), Files.isRegularFile(summary) ? read(summary) : null);
                }
                final Path sweep = dir.resolve(ExportFiles.SWEEP_FOLDER).resolve(io.aiperf.engine.sweep.SweepAggregator.FILE);
                if (Files.isRegularFile(sweep)) {
                    root.set("sweep", read(sweep));
                }
                doc = root;
            }
            out.println(JSON.writeValueAsString(doc));
            out.flush();
        } catch (IOException e) {
            err.println("error: no JSON summary: " + e.getMessage());
        }
    }

    private static JsonNode read(final Path file) throws IOException {
        return JSON.readTree(file.toFile());
    }
}
