package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.LoadType;
import io.aiperf.engine.config.PhaseKind;
import io.aiperf.engine.export.AtomicFiles;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.OutcomeJsonWriter;
import io.aiperf.engine.export.SummaryJsonWriter;
import io.aiperf.engine.metrics.MetricsAccumulator;
import io.aiperf.engine.metrics.MetricsSummary;
import io.aiperf.engine.metrics.RecordMetricsJsonl;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.record.CellStatus;
import io.aiperf.engine.record.HookCall;
import io.aiperf.engine.summary.RecordCodec;
import io.aiperf.engine.summary.RecordLine;
import io.aiperf.engine.summary.SummaryCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Merges the shards of one cell, run on several machines, into the cell (src-docs/distributed.md): every shard
 * present once, all from the same configuration, no request id in two shards. The records are pooled and the
 * metrics computed from the pool by the same code as a single run (percentiles of the pooled records, never
 * averages of the shards' percentiles; the duration is the union of the shards' windows; a fixed schedule's send lag
 * over every shard's requests). The rest of the summary is the first shard's. Stateless.
 */
public final class ShardMerger {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ShardMerger() {
    }

    /**
     * @param shards the shards' outcomes, each pointing at its directory
     * @return the merged cell's outcome (requests, valid and errors summed; the worst status)
     * @throws ConfigException when a shard is missing or twice, or the shards disagree
     */
    public static CellOutcome merge(final List<CellOutcome> shards, final Path target, final ExportNames names) {
        final CellOutcome first = shards.get(0);
        final String id = first.cell().id();
        final int count = first.shard().count();
        final List<CellOutcome> sorted = new ArrayList<>(shards);
        sorted.sort(Comparator.comparingInt(o -> o.shard().index()));
        for (int i = 0; i < count; i++) {
            if (i >= sorted.size() || sorted.get(i).shard().index() != i + 1) {
                throw new ConfigException("DIR", "cell " + id + ": shard " + (i + 1) + "/" + count + " is missing"
                        + (i < sorted.size() && sorted.get(i).shard().index() == i ? " (another shard appears twice)"
                        : ""));
            }
        }
        if (sorted.size() != count || sorted.stream().anyMatch(o -> o.shard().count() != count)) {
            throw new ConfigException("DIR", "cell " + id + ": the shards disagree on their number, or one appears "
                    + "twice");
        }
        final List<ObjectNode> summaries = new ArrayList<>();
        for (final CellOutcome o : sorted) {
            summaries.add(summary(Path.of(o.artifactDir()).resolve(names.summaryJson())));
        }
        final String hash = configHash(summaries.get(0));
        for (int i = 1; i < summaries.size(); i++) {
            if (!configHash(summaries.get(i)).equals(hash)) {
                throw new ConfigException("DIR", "cell " + id + ": shard " + (i + 1) + " ran another configuration "
                        + "than shard 1 (config hash " + configHash(summaries.get(i)) + " against " + hash + ")");
            }
        }
        final Map<String, Double> slos = new LinkedHashMap<>();
        summaries.get(0).path(SummaryCodec.INPUT_CONFIG).path("slos").properties()
                .forEach(e -> slos.put(e.getKey(), e.getValue().asDouble()));
        final MetricsSummary pooled;
        final Set<String> ids = new HashSet<>();
        // A fixed schedule's send lag is summarised over every shard's requests and anchored at the least-late send
        // of them all, as one process anchors its run: each shard's delays count from its own phase start, which
        // --start-at makes the shards share.
        try (MetricsAccumulator acc = new MetricsAccumulator(slos, replaysFixedSchedule(summaries.get(0)))) {
            final AtomicFiles.Pending records = AtomicFiles.begin(target.resolve(names.recordsJsonl()));
            try (OutputStream out = records.stream()) {
                for (final CellOutcome o : sorted) {
                    pool(Path.of(o.artifactDir()).resolve(names.recordsJsonl()), o, ids, acc, out);
                }
            } catch (IOException | RuntimeException e) {
                records.abort();
                throw e instanceof RuntimeException r ? r : new UncheckedIOException((IOException) e);
            }
            records.commit();
            pooled = acc.summary();
        }
        final ObjectNode merged = summaries.get(0).deepCopy();
        final ObjectNode shardInfo = merged.putObject(SummaryCodec.SHARDS).put(SummaryCodec.COUNT, count);
        for (final CellOutcome o : sorted) {
            shardInfo.withArray(SummaryCodec.REQUESTS_SENT).add(o.requestsSent());
            if (o.shard().startLatenessMs() != null) {
                shardInfo.withArray(SummaryCodec.START_LATENESS_MS).add(o.shard().startLatenessMs());
            }
            if (o.shard().clockOffsetMs() != null) {
                shardInfo.withArray(SummaryCodec.CLOCK_OFFSET_MS).add(o.shard().clockOffsetMs());
            }
        }
        merged.put(SummaryCodec.WAS_CANCELLED,
                summaries.stream().anyMatch(s -> s.path(SummaryCodec.WAS_CANCELLED).asBoolean()));
        SummaryJsonWriter.replaceMetrics(merged, pooled); // also judges the merged cell, shard checks included
        write(target.resolve(names.summaryJson()), merged);
        final List<HookCall> hooks = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        for (final CellOutcome o : sorted) {
            hooks.addAll(o.hooks());
            o.warnings().forEach(w -> warnings.add("shard " + o.shard().index() + ": " + w));
        }
        final CellStatus status = CellStatus.worst(sorted.stream().map(CellOutcome::status).toList());
        final CellOutcome cell = new CellOutcome(status, target.toAbsolutePath().toString(), hooks, warnings, sorted.stream().map(CellOutcome::error)
                .filter(java.util.Objects::nonNull).findFirst().orElse(null),
                sorted.stream().mapToLong(CellOutcome::requestsSent).sum(), pooled.validCount(), pooled.errorCount(),
                first.cell(), null);
        AtomicFiles.write(target.resolve(OutcomeJsonWriter.FILE), out -> out.write(OutcomeJsonWriter.bytes(cell,
                summaries.get(0).path(SummaryCodec.AIPERF_VERSION).asText())));
        return cell;
    }

    /** Whether the summary's profiling phase replayed a fixed schedule (its {@code input_config} phases). */
    private static boolean replaysFixedSchedule(final JsonNode summary) {
        for (final JsonNode phase : summary.path(SummaryCodec.INPUT_CONFIG).path("phases")) {
            if (PhaseKind.PROFILING.wireName().equals(phase.path("kind").asText())
                    && LoadType.FIXED_SCHEDULE.wireName().equals(phase.path("type").asText())) {
                return true;
            }
        }
        return false;
    }

    private static String configHash(final JsonNode summary) {
        return summary.path(SummaryCodec.ENVIRONMENT).path(SummaryCodec.CONFIG_HASH).asText();
    }

    private static void pool(final Path jsonl, final CellOutcome shard, final Set<String> ids,
                             final MetricsAccumulator acc, final OutputStream out) throws IOException {
        if (!Files.isRegularFile(jsonl)) {
            throw new ConfigException("DIR", "shard " + shard.shard().index() + " of cell " + shard.cell().id()
                    + " has no " + jsonl.getFileName() + " (run it with --export-level records or raw)");
        }
        // Each line is read through the codec and copied as it was: the merged file holds the shards' own bytes.
        try (BufferedReader in = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                final RecordLine record = RecordCodec.read(line);
                final String requestId = record.metadata().xRequestId();
                if (!ids.add(requestId)) {
                    throw new ConfigException("DIR", "request " + requestId + " appears in two shards of cell "
                            + shard.cell().id() + ": these are not shards of one run");
                }
                acc.add(RecordMetricsJsonl.read(record));
                out.write(line.getBytes(StandardCharsets.UTF_8));
                out.write('\n');
            }
        }
    }

    private static ObjectNode summary(final Path file) {
        try {
            return (ObjectNode) JSON.readTree(file.toFile());
        } catch (IOException | ClassCastException e) {
            throw new ConfigException("DIR", "cannot read " + file + ": " + e.getMessage());
        }
    }

    private static void write(final Path file, final ObjectNode json) {
        AtomicFiles.write(file, out -> out.write(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(json)));
    }
}
