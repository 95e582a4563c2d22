package io.aiperf.engine.gate;

import static io.aiperf.engine.summary.SearchResultCodec.CAPACITY;
import static io.aiperf.engine.summary.SearchResultCodec.CAPACITY_BOUNDS;
import static io.aiperf.engine.summary.SearchResultCodec.HIGH;
import static io.aiperf.engine.summary.SearchResultCodec.KNOB;
import static io.aiperf.engine.summary.SearchResultCodec.LABEL;
import static io.aiperf.engine.summary.SearchResultCodec.LOW;
import static io.aiperf.engine.summary.SearchResultCodec.MAX;
import static io.aiperf.engine.summary.SearchResultCodec.METRIC;
import static io.aiperf.engine.summary.SearchResultCodec.MIN;
import static io.aiperf.engine.summary.SearchResultCodec.NEXT_MISSED;
import static io.aiperf.engine.summary.SearchResultCodec.OP;
import static io.aiperf.engine.summary.SearchResultCodec.SEARCH;
import static io.aiperf.engine.summary.SearchResultCodec.SLAS;
import static io.aiperf.engine.summary.SearchResultCodec.SLA_TIERS;
import static io.aiperf.engine.summary.SearchResultCodec.STAT;
import static io.aiperf.engine.summary.SearchResultCodec.STATUS;
import static io.aiperf.engine.summary.SearchResultCodec.THRESHOLD;

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
        final JsonNode search = root.path(SEARCH);
        if (!search.path(KNOB).isTextual() || !root.path(STATUS).isTextual()) {
            throw new ConfigException(where, "not a search result: it has no search.knob or status");
        }
        final List<String> slas = new ArrayList<>();
        for (final JsonNode s : search.path(SLAS)) {
            slas.add(s.path(METRIC).asText() + ":" + s.path(STAT).asText() + ":" + s.path(OP).asText() + ":"
                    + Numbers.plain(s.path(THRESHOLD).asDouble()));
        }
        // a search with SLA tiers reports the most lenient tier's capacity: its tiers are part of what it searched
        for (final JsonNode tier : search.path(SLA_TIERS)) {
            for (final JsonNode s : tier.path(SLAS)) {
                slas.add(tier.path(LABEL).asText() + "=" + s.path(METRIC).asText() + ":" + s.path(STAT).asText()
                        + ":" + s.path(OP).asText() + ":" + Numbers.plain(s.path(THRESHOLD).asDouble()));
            }
        }
        final Integer capacity = root.path(CAPACITY).isNumber() ? root.path(CAPACITY).asInt() : null;
        final int low = root.path(CAPACITY_BOUNDS).path(LOW).asInt(capacity == null ? 0 : capacity);
        return new SearchOutcome(search.path(KNOB).asText(), search.path(MIN).asInt(), search.path(MAX).asInt(),
                List.copyOf(slas), root.path(STATUS).asText(), capacity, low,
                root.path(CAPACITY_BOUNDS).path(HIGH).asInt(low),
                root.path(NEXT_MISSED).isNumber() ? root.path(NEXT_MISSED).asInt() : null);
    }
}
