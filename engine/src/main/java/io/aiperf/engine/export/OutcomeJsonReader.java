package io.aiperf.engine.export;

import static io.aiperf.engine.summary.CellOutcomeCodec.ATTEMPTS;
import static io.aiperf.engine.summary.CellOutcomeCodec.CELL;
import static io.aiperf.engine.summary.CellOutcomeCodec.CLOCK_OFFSET_MS;
import static io.aiperf.engine.summary.CellOutcomeCodec.CONFIDENCE_LEVEL;
import static io.aiperf.engine.summary.CellOutcomeCodec.COOLDOWN_SECONDS;
import static io.aiperf.engine.summary.CellOutcomeCodec.COUNT;
import static io.aiperf.engine.summary.CellOutcomeCodec.COUNTS;
import static io.aiperf.engine.summary.CellOutcomeCodec.ELAPSED_MS;
import static io.aiperf.engine.summary.CellOutcomeCodec.ERROR;
import static io.aiperf.engine.summary.CellOutcomeCodec.ERRORS;
import static io.aiperf.engine.summary.CellOutcomeCodec.EXIT_CODE;
import static io.aiperf.engine.summary.CellOutcomeCodec.HOOK;
import static io.aiperf.engine.summary.CellOutcomeCodec.HOOKS;
import static io.aiperf.engine.summary.CellOutcomeCodec.ID;
import static io.aiperf.engine.summary.CellOutcomeCodec.INDEX;
import static io.aiperf.engine.summary.CellOutcomeCodec.NUM_TRIALS;
import static io.aiperf.engine.summary.CellOutcomeCodec.ORIGIN;
import static io.aiperf.engine.summary.CellOutcomeCodec.PARAMETERS;
import static io.aiperf.engine.summary.CellOutcomeCodec.PATH;
import static io.aiperf.engine.summary.CellOutcomeCodec.REQUESTS_SENT;
import static io.aiperf.engine.summary.CellOutcomeCodec.RESULT;
import static io.aiperf.engine.summary.CellOutcomeCodec.SHARD;
import static io.aiperf.engine.summary.CellOutcomeCodec.START_AT;
import static io.aiperf.engine.summary.CellOutcomeCodec.START_LATENESS_MS;
import static io.aiperf.engine.summary.CellOutcomeCodec.STATUS;
import static io.aiperf.engine.summary.CellOutcomeCodec.STATUS_CODE;
import static io.aiperf.engine.summary.CellOutcomeCodec.TRIAL;
import static io.aiperf.engine.summary.CellOutcomeCodec.URL;
import static io.aiperf.engine.summary.CellOutcomeCodec.VALID;
import static io.aiperf.engine.summary.CellOutcomeCodec.VARIATION;
import static io.aiperf.engine.summary.CellOutcomeCodec.WARNINGS;

import io.aiperf.engine.summary.CellOutcomeCodec;
import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.record.HookCall;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads back what {@link OutcomeJsonWriter} wrote, for merging cells run elsewhere. Stateless. */
public final class OutcomeJsonReader {
    private OutcomeJsonReader() {
    }

    /**
     * @param artifactDir where the cell's files are now (they may have moved since the run)
     * @return the outcome, or null when the file holds no cell identity (written by an older engine)
     */
    public static CellOutcome read(final Path file, final Path artifactDir) throws IOException {
        final JsonNode root = SummaryJsonWriter.JSON.readTree(file.toFile());
        final JsonNode cell = root.path(CELL);
        if (!cell.isObject()) {
            return null;
        }
        final Map<String, Object> parameters = new LinkedHashMap<>();
        cell.path(PARAMETERS).properties().forEach(e -> parameters.put(e.getKey(),
                e.getValue().isNumber() ? e.getValue().numberValue() : e.getValue().asText()));
        final CellIdentity identity = new CellIdentity(cell.path(INDEX).asInt(), cell.path(ID).asText(),
                cell.path(PATH).asText("."), text(cell.path(VARIATION)), parameters, cell.path(TRIAL).asInt(1),
                cell.path(NUM_TRIALS).asInt(1), cell.path(CONFIDENCE_LEVEL).asDouble(0.95),
                cell.path(COOLDOWN_SECONDS).asDouble(0));
        final List<HookCall> hooks = new ArrayList<>();
        root.path(HOOKS).forEach(h -> hooks.add(new HookCall(h.path(HOOK).asText(), h.path(ORIGIN).asText(),
                h.path(URL).asText(), h.path(ATTEMPTS).asInt(), h.path(RESULT).asText(),
                h.path(STATUS_CODE).isNumber() ? h.path(STATUS_CODE).asInt() : null, text(h.path(ERROR)),
                h.path(ELAPSED_MS).asLong())));
        final List<String> warnings = new ArrayList<>();
        root.path(WARNINGS).forEach(w -> warnings.add(w.asText()));
        final JsonNode counts = root.path(COUNTS);
        final CellStatus status;
        try {
            status = CellStatus.of(root.path(STATUS).asText(), root.path(EXIT_CODE).asInt());
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
        return new CellOutcome(status, artifactDir.toAbsolutePath().toString(), hooks, warnings, text(root.path(ERROR)),
                counts.path(REQUESTS_SENT).asLong(), counts.path(VALID).asLong(), counts.path(ERRORS).asLong(),
                identity, shard(root.path(SHARD)));
    }

    private static io.aiperf.engine.record.ShardRun shard(final JsonNode s) {
        if (!s.isObject()) {
            return null;
        }
        return new io.aiperf.engine.record.ShardRun(s.path(INDEX).asInt(1), s.path(COUNT).asInt(1),
                text(s.path(START_AT)), s.path(START_LATENESS_MS).isNumber() ? s.path(START_LATENESS_MS).asDouble()
                : null, s.path(CLOCK_OFFSET_MS).isNumber() ? s.path(CLOCK_OFFSET_MS).asDouble() : null);
    }

    private static String text(final JsonNode n) {
        return n.isMissingNode() || n.isNull() ? null : n.asText();
    }
}
