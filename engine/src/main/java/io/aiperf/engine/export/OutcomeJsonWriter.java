package io.aiperf.engine.export;

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
        root.put("schema_version", SCHEMA_VERSION);
        root.put("aiperf_version", version);
        root.put("status", o.status().wireName());
        root.put("exit_code", o.exitCode());
        root.put("artifact_dir", o.artifactDir());
        final ArrayNode hooks = root.putArray("hooks");
        for (final HookCall c : o.hooks()) {
            final ObjectNode h = hooks.addObject();
            h.put("hook", c.hook());
            h.put("origin", c.origin());
            h.put("url", c.url());
            h.put("attempts", c.attempts());
            h.put("result", c.result());
            if (c.statusCode() == null) {
                h.putNull("status_code");
            } else {
                h.put("status_code", c.statusCode());
            }
            if (c.error() == null) {
                h.putNull("error");
            } else {
                h.put("error", c.error());
            }
            h.put("elapsed_ms", c.elapsedMillis());
        }
        final ArrayNode warnings = root.putArray("warnings");
        o.warnings().forEach(warnings::add);
        if (o.error() == null) {
            root.putNull("error");
        } else {
            root.put("error", o.error());
        }
        final ObjectNode counts = root.putObject("counts");
        counts.put("requests_sent", o.requestsSent());
        counts.put("valid", o.valid());
        counts.put("errors", o.errors());
        root.set("cell", cell(o.cell()));
        if (o.shard() != null) {
            final ObjectNode s = root.putObject("shard").put("index", o.shard().index()).put("count", o.shard().count());
            if (o.shard().startAt() != null) {
                s.put("start_at", o.shard().startAt());
            }
            if (o.shard().startLatenessMs() != null) {
                s.put("start_lateness_ms", o.shard().startLatenessMs());
            }
            if (o.shard().clockOffsetMs() != null) {
                s.put("clock_offset_ms", o.shard().clockOffsetMs()).put("clock_offset_resolution_ms", 1000);
            }
        }
        return root;
    }

    private static ObjectNode cell(final CellIdentity c) {
        final ObjectNode cell = SummaryJsonWriter.JSON.createObjectNode();
        cell.put("index", c.index());
        cell.put("id", c.id());
        cell.put("path", c.path());
        if (c.variation() == null) {
            cell.putNull("variation");
        } else {
            cell.put("variation", c.variation());
        }
        final ObjectNode params = cell.putObject("parameters");
        c.parameters().forEach(params::putPOJO);
        cell.put("trial", c.trial());
        cell.put("num_trials", c.numTrials());
        cell.put("confidence_level", c.confidenceLevel());
        cell.put("cooldown_seconds", c.cooldownSeconds());
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
