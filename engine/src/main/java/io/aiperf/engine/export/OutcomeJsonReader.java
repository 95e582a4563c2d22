package io.aiperf.engine.export;

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
        final JsonNode cell = root.path("cell");
        if (!cell.isObject()) {
            return null;
        }
        final Map<String, Object> parameters = new LinkedHashMap<>();
        cell.path("parameters").properties().forEach(e -> parameters.put(e.getKey(),
                e.getValue().isNumber() ? e.getValue().numberValue() : e.getValue().asText()));
        final CellIdentity identity = new CellIdentity(cell.path("index").asInt(), cell.path("id").asText(),
                cell.path("path").asText("."), text(cell.path("variation")), parameters, cell.path("trial").asInt(1),
                cell.path("num_trials").asInt(1), cell.path("confidence_level").asDouble(0.95),
                cell.path("cooldown_seconds").asDouble(0));
        final List<HookCall> hooks = new ArrayList<>();
        root.path("hooks").forEach(h -> hooks.add(new HookCall(h.path("hook").asText(), h.path("origin").asText(),
                h.path("url").asText(), h.path("attempts").asInt(), h.path("result").asText(),
                h.path("status_code").isNumber() ? h.path("status_code").asInt() : null, text(h.path("error")),
                h.path("elapsed_ms").asLong())));
        final List<String> warnings = new ArrayList<>();
        root.path("warnings").forEach(w -> warnings.add(w.asText()));
        final JsonNode counts = root.path("counts");
        final CellStatus status;
        try {
            status = CellStatus.of(root.path("status").asText(), root.path("exit_code").asInt());
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
        return new CellOutcome(status, artifactDir.toAbsolutePath().toString(), hooks, warnings, text(root.path("error")),
                counts.path("requests_sent").asLong(), counts.path("valid").asLong(), counts.path("errors").asLong(),
                identity, shard(root.path("shard")));
    }

    private static io.aiperf.engine.record.ShardRun shard(final JsonNode s) {
        if (!s.isObject()) {
            return null;
        }
        return new io.aiperf.engine.record.ShardRun(s.path("index").asInt(1), s.path("count").asInt(1),
                text(s.path("start_at")), s.path("start_lateness_ms").isNumber() ? s.path("start_lateness_ms").asDouble()
                : null, s.path("clock_offset_ms").isNumber() ? s.path("clock_offset_ms").asDouble() : null);
    }

    private static String text(final JsonNode n) {
        return n.isMissingNode() || n.isNull() ? null : n.asText();
    }
}
