package io.aiperf.engine.export;

import static io.aiperf.engine.summary.CellOutcomeCodec.AIPERF_VERSION;
import static io.aiperf.engine.summary.CellOutcomeCodec.ARTIFACT_DIR;
import static io.aiperf.engine.summary.CellOutcomeCodec.ATTEMPTS;
import static io.aiperf.engine.summary.CellOutcomeCodec.CELL;
import static io.aiperf.engine.summary.CellOutcomeCodec.CLOCK_OFFSET_MS;
import static io.aiperf.engine.summary.CellOutcomeCodec.CLOCK_OFFSET_RESOLUTION_MS;
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
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.HookCall;
import io.aiperf.engine.summary.ExportFiles;

/** {@code cell_outcome.json}: the engine-to-CI contract for one cell. */
public final class OutcomeJsonWriter {
    public static final String FILE = ExportFiles.CELL_OUTCOME;
    public static final String SCHEMA_VERSION = "1.0";

    private OutcomeJsonWriter() {
    }

    public static ObjectNode toJson(final CellOutcome o, final String version) {
        final ObjectNode root = SummaryJsonWriter.JSON.createObjectNode();
        root.put(CellOutcomeCodec.SCHEMA_VERSION, SCHEMA_VERSION);
        root.put(AIPERF_VERSION, version);
        root.put(STATUS, o.status().wireName());
        root.put(EXIT_CODE, o.exitCode());
        root.put(ARTIFACT_DIR, o.artifactDir());
        final ArrayNode hooks = root.putArray(HOOKS);
        for (final HookCall c : o.hooks()) {
            final ObjectNode h = hooks.addObject();
            h.put(HOOK, c.hook());
            h.put(ORIGIN, c.origin());
            h.put(URL, c.url());
            h.put(ATTEMPTS, c.attempts());
            h.put(RESULT, c.result());
            if (c.statusCode() == null) {
                h.putNull(STATUS_CODE);
            } else {
                h.put(STATUS_CODE, c.statusCode());
            }
            if (c.error() == null) {
                h.putNull(ERROR);
            } else {
                h.put(ERROR, c.error());
            }
            h.put(ELAPSED_MS, c.elapsedMillis());
        }
        final ArrayNode warnings = root.putArray(WARNINGS);
        o.warnings().forEach(warnings::add);
        if (o.error() == null) {
            root.putNull(ERROR);
        } else {
            root.put(ERROR, o.error());
        }
        final ObjectNode counts = root.putObject(COUNTS);
        counts.put(REQUESTS_SENT, o.requestsSent());
        counts.put(VALID, o.valid());
        counts.put(ERRORS, o.errors());
        root.set(CELL, cell(o.cell()));
        if (o.shard() != null) {
            final ObjectNode s = root.putObject(SHARD).put(INDEX, o.shard().index()).put(COUNT, o.shard().count());
            if (o.shard().startAt() != null) {
                s.put(START_AT, o.shard().startAt());
            }
            if (o.shard().startLatenessMs() != null) {
                s.put(START_LATENESS_MS, o.shard().startLatenessMs());
            }
            if (o.shard().clockOffsetMs() != null) {
                s.put(CLOCK_OFFSET_MS, o.shard().clockOffsetMs()).put(CLOCK_OFFSET_RESOLUTION_MS, 1000);
            }
        }
        return root;
    }

    private static ObjectNode cell(final CellIdentity c) {
        final ObjectNode cell = SummaryJsonWriter.JSON.createObjectNode();
        cell.put(INDEX, c.index());
        cell.put(ID, c.id());
        cell.put(PATH, c.path());
        if (c.variation() == null) {
            cell.putNull(VARIATION);
        } else {
            cell.put(VARIATION, c.variation());
        }
        final ObjectNode params = cell.putObject(PARAMETERS);
        c.parameters().forEach(params::putPOJO);
        cell.put(TRIAL, c.trial());
        cell.put(NUM_TRIALS, c.numTrials());
        cell.put(CONFIDENCE_LEVEL, c.confidenceLevel());
        cell.put(COOLDOWN_SECONDS, c.cooldownSeconds());
        return cell;
    }

    public static byte[] bytes(final CellOutcome o, final String version) {
        try {
            return SummaryJsonWriter.JSON.writeValueAsBytes(toJson(o, version));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
