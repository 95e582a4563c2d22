package io.aiperf.engine.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.summary.ExportFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A capacity search's {@code search_result.json} as the gate (and the report) read it back: what was searched, how
 * it ended, and the capacity with its bounds (src-docs/capacity.md). The search writes it
 * ({@code io.aiperf.engine.search.SearchResult}).
 *
 * @param slas the SLOs as given ({@code metric:stat:op:threshold})
 * @param capacity the highest value that met every SLO, or null when none did
 * @param low the lowest value the capacity can have (the capacity, or 0 when none met)
 * @param high the highest value it can have (equal to {@code low} when the boundary was decided)
 * @param nextMissed the lowest value that did not meet the SLOs, or null
 */
public record SearchOutcome(String knob, int min, int max, List<String> slas, String status, Integer capacity,
                            int low, int high, Integer nextMissed) {
    public static final String FILE_NAME = ExportFiles.SEARCH_JSON;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Whether the search ran to its end (converged or out of probes), not cancelled. */
    public boolean finished() {
        return !"cancelled".equals(status);
    }

    /** The search in one line, e.g. "concurrency 1..16 under time_to_first_token:p95:lt:45". */
    public String describe() {
        return knob + " " + min + ".." + max + " under " + String.join(", ", slas);
    }

    /** The capacity in words: "8", "6 to 8" or "none". */
    public String capacityText() {
        if (capacity == null && high < min) {
            return "none";
        }
        return low == high ? Integer.toString(low) : low + " to " + high;
    }

    /** The {@code search_result.json} in {@code dir}, or null when there is none. */
    public static SearchOutcome in(final Path dir) {
        final Path file = dir.resolve(FILE_NAME);
        return Files.isRegularFile(file) ? read(file) : null;
    }

    /** @throws ConfigException naming the file when it is not a search result */
    public static SearchOutcome read(final Path file) {
        final JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new ConfigException(file.toString(), "not a readable search result: " + e.getMessage());
        }
        return of(root, file.toString());
    }

    /**
     * The search result a search just assembled, or one read from {@code where}.
     *
     * @throws ConfigException naming {@code where} when it is not a search result
     */
    public static SearchOutcome of(final JsonNode root, final String where) {
        final JsonNode search = root.path("search");
        if (!search.path("knob").isTextual() || !root.path("status").isTextual()) {
            throw new ConfigException(where, "not a search result: it has no search.knob or status");
        }
        final List<String> slas = new ArrayList<>();
        for (final JsonNode s : search.path("slas")) {
            slas.add(s.path("metric").asText() + ":" + s.path("stat").asText() + ":" + s.path("op").asText() + ":"
                    + Numbers.plain(s.path("threshold").asDouble()));
        }
        // a search with SLA tiers reports the most lenient tier's capacity: its tiers are part of what it searched
        for (final JsonNode tier : search.path("sla_tiers")) {
            for (final JsonNode s : tier.path("slas")) {
                slas.add(tier.path("label").asText() + "=" + s.path("metric").asText() + ":" + s.path("stat").asText()
                        + ":" + s.path("op").asText() + ":" + Numbers.plain(s.path("threshold").asDouble()));
            }
        }
        final Integer capacity = root.path("capacity").isNumber() ? root.path("capacity").asInt() : null;
        final int low = root.path("capacity_bounds").path("low").asInt(capacity == null ? 0 : capacity);
        return new SearchOutcome(search.path("knob").asText(), search.path("min").asInt(), search.path("max").asInt(),
                List.copyOf(slas), root.path("status").asText(), capacity, low,
                root.path("capacity_bounds").path("high").asInt(low),
                root.path("next_missed").isNumber() ? root.path("next_missed").asInt() : null);
    }
}
