package io.aiperf.engine.validity;

import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.CellSummary.ValidityCheck;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The validity problems of a run of several cells, one console line per check instead of one per cell: a 9-cell
 * sweep under 100 requests a cell says so once ("in 9 of 9 cells"), with the worst cell's message. Each cell's
 * summary keeps its own validity block; the digest reads the checks the cell was judged with, judging nothing again.
 * Stateless.
 */
public final class ValidityDigest {
    private ValidityDigest() {
    }

    /** A cell's id and its summary, with the checks its validity block holds. */
    public record Cell(String id, CellSummary summary) {
    }

    /** One line per check that was not ok in some cell, worst result first. */
    public static List<String> lines(final List<Cell> cells) {
        final Map<String, List<ValidityCheck>> byCheck = new LinkedHashMap<>();
        final Map<ValidityCheck, String> cellOf = new IdentityHashMap<>();
        int judged = 0;
        for (final Cell cell : cells) {
            final List<ValidityCheck> checks = cell.summary().validityChecks();
            judged += checks.isEmpty() ? 0 : 1;
            for (final ValidityCheck c : checks) {
                if (!Result.OK.wireName().equals(c.result())) {
                    byCheck.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(c);
                    cellOf.put(c, cell.id());
                }
            }
        }
        final List<String> out = new ArrayList<>();
        for (final String result : List.of(Result.INVALID.wireName(), Result.WARN.wireName())) {
            for (final Map.Entry<String, List<ValidityCheck>> e : byCheck.entrySet()) {
                final ValidityCheck worst = worst(e.getValue());
                if (!result.equals(worst.result())) {
                    continue;
                }
                out.add(String.format(Locale.ROOT, "Validity %s (%s) in %d of %d cells: %s (cell %s); %s", result,
                        e.getKey(), e.getValue().size(), judged, worst.message(), cellOf.get(worst),
                        worst.fix() == null ? "" : worst.fix()));
            }
        }
        return out;
    }

    /** The check with the worst result; among equals, the first (cells run in order). */
    private static ValidityCheck worst(final List<ValidityCheck> checks) {
        ValidityCheck worst = checks.get(0);
        for (final ValidityCheck c : checks) {
            if (Result.INVALID.wireName().equals(c.result()) && !Result.INVALID.wireName().equals(worst.result())) {
                worst = c;
            }
        }
        return worst;
    }
}
