package io.aiperf.engine.ci;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.summary.CellOutcomeCodec;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.summary.GateResultCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Turns the engine's exit code and outcome files into a build verdict (control-hooks contract, outcome
 * section): fatal hooks and failed cells fail the build, a failed profiler stop is a visible warning that
 * changes nothing unless {@code unstableOnWarnings}, an unstable gate is UNSTABLE, Ctrl-C is ABORTED.
 * Stateless.
 */
public final class OutcomeClassifier {
    private OutcomeClassifier() {
    }

    public static Classification classify(final int exitCode, final Path exportDir, final boolean unstableOnWarnings) {
        final List<String> reasons = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        for (final JsonNode cell : cellOutcomes(exportDir)) {
            cell.path(CellOutcomeCodec.WARNINGS).forEach(w -> warnings.add(w.asText()));
            if (!cell.path(CellOutcomeCodec.ERROR).isNull() && !cell.path(CellOutcomeCodec.ERROR).isMissingNode()) {
                reasons.add(cell.path(CellOutcomeCodec.ERROR).asText());
            }
        }
        final JsonNode gate = KeyMetrics.read(exportDir.resolve(ExportFiles.GATE_JSON));
        if (gate != null) {
            gate.path(GateResultCodec.RULES).forEach(r -> {
                final String status = r.path(GateResultCodec.STATUS).asText();
                if (status.equals("failed") || status.equals("unstable") || status.equals("inconclusive")) {
                    reasons.add("gate " + status + ": " + r.path(GateResultCodec.MESSAGE).asText());
                }
            });
        }
        final Verdict verdict = switch (exitCode) {
            case ExitCode.OK -> unstableOnWarnings && !warnings.isEmpty() ? Verdict.UNSTABLE : Verdict.SUCCESS;
            case ExitCode.GATE_UNSTABLE, ExitCode.GATE_INCONCLUSIVE -> Verdict.UNSTABLE;
            case ExitCode.CANCELLED, ExitCode.TERMINATED -> Verdict.ABORTED;
            default -> Verdict.FAILURE;
        };
        if (exitCode == ExitCode.USAGE) {
            reasons.add("the engine rejected its configuration (exit 2); see the log");
        } else if (verdict == Verdict.FAILURE && reasons.isEmpty()) {
            reasons.add("the engine exited with code " + exitCode);
        }
        if (verdict == Verdict.UNSTABLE && unstableOnWarnings && exitCode == ExitCode.OK) {
            reasons.addAll(warnings);
        }
        return new Classification(verdict, List.copyOf(reasons), List.copyOf(warnings));
    }

    private static List<JsonNode> cellOutcomes(final Path dir) {
        final List<JsonNode> out = new ArrayList<>();
        for (final Path p : outcomeFiles(dir)) {
            final JsonNode n = KeyMetrics.read(p);
            if (n != null) {
                out.add(n);
            }
        }
        return out;
    }

    /** Every {@code cell_outcome.json} under the directory, sorted; none when it is missing or unreadable. */
    static List<Path> outcomeFiles(final Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> p.getFileName().toString().equals(ExportFiles.CELL_OUTCOME)).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
