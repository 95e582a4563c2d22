package io.aiperf.engine.validity;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.summary.SummaryCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The validity problems of a run of several cells, one console line per check instead of one per cell: a 9-cell
 * sweep under 100 requests a cell says so once ("in 9 of 9 cells"), with the worst cell's message. Each cell's
 * summary keeps its own validity block. Stateless.
 */
public final class ValidityDigest {
    private ValidityDigest() {
    }

    /** A cell's id and its summary ({@code profile_export_aiperf.json}, with its validity block). */
    public record Cell(String id, JsonNode summary) {
    }

    /** One line per check that was not ok in some cell, worst result first. */
    public static List<String> lines(final List<Cell> cells) {
        final Map<String, List<JsonNode>> byCheck = new LinkedHashMap<>();
        final Map<JsonNode, String> cellOf = new java.util.IdentityHashMap<>();
        int judged = 0;
        for (final Cell cell : cells) {
            final JsonNode checks = cell.summary().path(SummaryCodec.VALIDITY).path("checks");
            judged += checks.isEmpty() ? 0 : 1;
            for (final JsonNode c : checks) {
                if (!Result.OK.wireName().equals(c.path("result").asText())) {
                    byCheck.computeIfAbsent(c.path("name").asText(), k -> new ArrayList<>()).add(c);
                    cellOf.put(c, cell.id());
                }
            }
        }
        final List<String> out = new ArrayList<>();
        for (final String result : List.of(Result.INVALID.wireName(), Result.WARN.wireName())) {
            for (final Map.Entry<String, List<JsonNode>> e : byCheck.entrySet()) {
                final JsonNode worst = worst(e.getValue());
                if (!worst.path("result").asText().equals(result)) {
                    continue;
                }
                out.add(String.format(Locale.ROOT, "Validity %s (%s) in %d of %d cells: %s (cell %s); %s", result,
                        e.getKey(), e.getValue().size(), judged, worst.path("message").asText(), cellOf.get(worst),
                        worst.path("fix").asText()));
            }
        }
        return out;
    }

    /** The check with the worst result; among equals, the first (cells run in order). */
    private static JsonNode worst(final List<JsonNode> checks) {
        JsonNode worst = checks.get(0);
        for (final JsonNode c : checks) {
            if (Result.INVALID.wireName().equals(c.path("result").asText())
                    && !Result.INVALID.wireName().equals(worst.path("result").asText())) {
                worst = c;
            }
        }
        return worst;
    }
}
