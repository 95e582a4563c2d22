package io.aiperf.engine.ci;

import static io.aiperf.engine.summary.SearchResultCodec.CAPACITY;
import static io.aiperf.engine.summary.SearchResultCodec.CAPACITY_BOUNDS;
import static io.aiperf.engine.summary.SearchResultCodec.HIGH;
import static io.aiperf.engine.summary.SearchResultCodec.KNOB;
import static io.aiperf.engine.summary.SearchResultCodec.LOW;
import static io.aiperf.engine.summary.SearchResultCodec.NEXT_MISSED;
import static io.aiperf.engine.summary.SearchResultCodec.SEARCH;
import static io.aiperf.engine.summary.SearchResultCodec.STATUS;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.summary.ExportFiles;
import java.nio.file.Path;
import java.util.LinkedHashMap;

/**
 * The capacity a search found, from its {@code search_result.json} (src-docs/capacity.md), as a CI step returns it
 * and the build page and trend show it. Read with Jackson alone: this package loads in the Jenkins JVMs.
 *
 * @param value the capacity (the lowest it can be: 0 when no point met the SLOs), or null when the search was
 *              cancelled
 * @param high the highest it can be (the same as {@code value} when the boundary was decided)
 * @param nextMissed the lowest probed value that did not meet the SLOs, or null
 */
public record SearchCapacity(String knob, Integer value, int high, Integer nextMissed, String status) {
    /** The key of {@link KeyMetrics#KEYS} and of the step's result. */
    public static final String KEY = "capacity";
    public static final String UNIT = "concurrency or req/s";
    static final String FILE = ExportFiles.SEARCH_JSON;

    /** The search result at the top of a run directory, or null when it holds none. */
    public static SearchCapacity in(final Path runDir) {
        final JsonNode root = KeyMetrics.read(runDir.resolve(FILE));
        if (root == null || !root.path(SEARCH).path(KNOB).isTextual()) {
            return null;
        }
        final String status = root.path(STATUS).asText();
        final JsonNode bounds = root.path(CAPACITY_BOUNDS);
        final Integer low = "cancelled".equals(status) ? null : root.path(CAPACITY).isNumber()
                ? Integer.valueOf(root.path(CAPACITY).asInt()) : Integer.valueOf(bounds.path(LOW).asInt(0));
        return new SearchCapacity(root.path(SEARCH).path(KNOB).asText(), low,
                bounds.path(HIGH).asInt(low == null ? 0 : low),
                root.path(NEXT_MISSED).isNumber() ? root.path(NEXT_MISSED).asInt() : null, status);
    }

    /** As the step returns it: JDK types only. */
    public LinkedHashMap<String, Object> toMap() {
        final LinkedHashMap<String, Object> out = new LinkedHashMap<>();
        out.put("knob", knob);
        out.put("value", value);
        out.put("high", high);
        out.put("nextMissed", nextMissed);
        out.put("status", status);
        return out;
    }
}
