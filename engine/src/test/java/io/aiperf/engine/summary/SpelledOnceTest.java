package io.aiperf.engine.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Export file names and the keys of the seven documents the engine writes and reads back (the summary, the
 * records, cell_outcome.json, run_outcome.json, search_result.json, gate_result.json and the trial and sweep
 * aggregates) are spelled in one file each: a literal
 * {@code "profile_export.jsonl"}, {@code "client_health"} or {@code "request_start_ns"} anywhere else in the engine's
 * main sources is a second spelling that drifts. Words that are also another file's vocabulary are listed with the
 * reason.
 */
class SpelledOnceTest {
    private static final Path MAIN = Path.of("src/main/java");

    /** File-name parts that are also other things' names. */
    private static final Map<String, String> SHARED_NAMES = Map.of(
            ".json", "any JSON file's extension (the gate tells summaries from other JSON by it)",
            ".jsonl", "any JSONL input file's extension",
            "aggregate", "also the aggregate subcommand and the Jenkins step's aggregate slot");

    /** Summary keys that are also another file's keys or another thing's name. */
    private static final Map<String, String> SHARED_KEYS = sharedKeys();

    private static Map<String, String> sharedKeys() {
        final Map<String, String> m = new LinkedHashMap<>();
        final String generic = "a generic word other files' keys use too";
        for (final String k : List.of("unit", "avg", "min", "max", "std", "count", "sum", "code", "type", "message",
                "name", "version", "commit", "model", "models", "tokenizer", "server", "java", "gpu", "protocol",
                "proxy", "connection", "requests", "result", "trial", "revision", "random_seed")) {
            m.put(k, generic);
        }
        m.put("source", "also the key of an image block's data in Anthropic's Messages API");
        m.put("summary", "also an export level, a YAML artifacts key and GPU telemetry's display mode");
        for (final String k : List.of("benchmark_id", "input_config", "start_time", "end_time",
                "endpoints_configured", "endpoints_successful")) {
            m.put(k, "also a key of server_metrics_export.json, in upstream's shape (ServerMetricsJson)");
        }
        m.put("schema_version", "every export of this engine carries a schema_version");
        m.put("aiperf_version", "cell_outcome.json and run_outcome.json carry the version that wrote them");
        m.put("validity", "also a gate-rules block, and a column of search_result.json");
        m.put("was_cancelled", "also a key of every profile_export.jsonl record");
        m.put("requested_output_tokens", "also a key of every profile_export.jsonl record");
        m.put("malformed_chunks", "also a key of every profile_export.jsonl record");
        m.put("redirects", "also a key of every profile_export.jsonl record");
        m.put("abandoned_requests", "also the name of the validity check that reads it");
        m.put("achieved_rate", "also the name of the validity check computed from scheduled and sent");
        m.put("open_loop", "also a value of client_limited_by");
        m.put("client_limited", "also a column of search_result.json");
        m.put("build_info", "also the server route the environment probe reads");
        m.put("config_hash", "also a fingerprint field");
        m.put("requests_sent", "also a key of cell_outcome.json, where the shards' numbers come from");
        m.put("start_lateness_ms", "also a key of cell_outcome.json, where the shards' numbers come from");
        m.put("clock_offset_ms", "also a key of cell_outcome.json, where the shards' numbers come from");
        return m;
    }

    /** Record keys that are also another file's keys. */
    private static final Map<String, String> SHARED_RECORD_KEYS = sharedRecordKeys();

    private static Map<String, String> sharedRecordKeys() {
        final Map<String, String> m = new LinkedHashMap<>();
        for (final String k : List.of("value", "unit", "code", "type", "message", "error", "metrics", "metadata")) {
            m.put(k, "a generic word other files' keys use too");
        }
        for (final String k : List.of("was_cancelled", "requested_output_tokens", "malformed_chunks", "redirects")) {
            m.put(k, "also a key of profile_export_aiperf.json (SummaryCodec)");
        }
        m.put("conversation_id", "also a key of the input dataset formats (a row's conversation)");
        m.put("retried", "also a key of trace_data, whose keys are the HTTP trace's");
        m.put("client", "also the alias of the client certificate in the key store built for TLS");
        return m;
    }

    /** search_result.json keys that are also another file's keys or another thing's name. */
    private static final Map<String, String> SHARED_SEARCH_KEYS = sharedSearchKeys();

    private static Map<String, String> sharedSearchKeys() {
        final Map<String, String> m = new LinkedHashMap<>();
        final String generic = "a generic word other files' keys use too";
        for (final String k : List.of("status", "points", "path", "min", "max", "confidence", "direction",
                "random_seed", "label", "mode", "metric", "stat", "threshold", "value", "values", "trial", "error")) {
            m.put(k, generic);
        }
        m.put("search", "also the search's YAML section and the folder of its cells");
        m.put("capacity", "also the gate's capacity rule and the CI step's key metric");
        m.put("knob", "also a key of the CI step's result");
        m.put("high", "also a key of the CI step's result");
        for (final String k : List.of("convergence", "min_runs", "converged", "artifact_dir", "trials")) {
            m.put(k, "also a key of a point's convergence block, which the convergence package writes");
        }
        m.put("decision", "also a column of the console's search table");
        m.put("margin", "also a column of the console's search table");
        m.put("validity", "also a column of the console's search table, and a block of the summary");
        m.put("request_throughput", "also the catalogue's metric tag");
        m.put("verdict", "also a key of gate_result.json");
        m.put("client_limited", "also a key of the summary's client_health");
        return m;
    }

    /** cell_outcome.json keys (and run_outcome.json's, most of them the same) that are also other things' names. */
    private static final Map<String, String> SHARED_OUTCOME_KEYS = sharedOutcomeKeys();

    private static Map<String, String> sharedOutcomeKeys() {
        final Map<String, String> m = new LinkedHashMap<>();
        final String generic = "a generic word other files' keys use too";
        for (final String k : List.of("status", "error", "url", "index", "id", "path", "parameters", "count", "trial",
                "label", "cell", "cells")) {
            m.put(k, generic);
        }
        for (final String k : List.of("schema_version", "aiperf_version", "requests_sent", "start_lateness_ms",
                "clock_offset_ms", "result")) {
            m.put(k, "also a key of profile_export_aiperf.json (SummaryCodec)");
        }
        m.put("exit_code", "also a key of gate_result.json");
        m.put("artifact_dir", "also a key of search_result.json and of a point's convergence block");
        for (final String k : List.of("warnings", "hooks", "hook", "status_code", "valid", "errors", "counts")) {
            m.put(k, "also a key of the CI step's result or key metrics");
        }
        m.put("variation", "also the name of a sweep point in the CI's key metrics");
        for (final String k : List.of("confidence_level", "cooldown_seconds", "shard", "start_at")) {
            m.put(k, "also a key of the YAML config (multi_run, runtime) and of the trial aggregates");
        }
        return m;
    }

    /** gate_result.json keys that are also another file's keys or another thing's name. */
    private static final Map<String, String> SHARED_GATE_KEYS = sharedGateKeys();

    private static Map<String, String> sharedGateKeys() {
        final Map<String, String> m = new LinkedHashMap<>();
        final String generic = "a generic word other files' keys use too";
        for (final String k : List.of("metric", "stat", "unit", "status", "message", "limit", "delta", "cell",
                "exit_code")) {
            m.put(k, generic);
        }
        m.put("verdict", "also a key of search_result.json and of the CI step's result");
        for (final String k : List.of("candidate", "baseline", "baselines")) {
            m.put(k, "also the name of a side of a comparison and of the gate's options");
        }
        for (final String k : List.of("rules", "direction", "criticality", "noise_floor")) {
            m.put(k, "also a key of the gate's rules file, which a rule's result repeats");
        }
        return m;
    }

    /** Aggregate keys that are also another file's keys or another thing's name. */
    private static final Map<String, String> SHARED_AGGREGATE_KEYS = sharedAggregateKeys();

    private static Map<String, String> sharedAggregateKeys() {
        final Map<String, String> m = new LinkedHashMap<>();
        final String generic = "a generic word other files' keys use too";
        for (final String k : List.of("metadata", "metrics", "label", "unit", "error", "name", "values", "metric",
                "parameters", "mean", "std", "min", "max", "cv", "schema_version", "aiperf_version",
                "confidence", "sweep", "avg", "count", "sum", "model")) {
            m.put(k, generic);
        }
        for (final String k : List.of("variation_label", "variation_values")) {
            m.put(k, "also a key of the summary's run_info, which names the same sweep point");
        }
        for (final String k : List.of("confidence_level", "cooldown_seconds", "sweep_mode")) {
            m.put(k, "also a key of the YAML config (multi_run, sweep) and of cell_outcome.json");
        }
        m.put("repeated", "also a value of the YAML config's sweep mode");
        m.put("independent", "also a value of the YAML config's sweep mode");
        return m;
    }

    @Test
    void everyExportFileNameIsSpelledInExportFilesOnly() throws IOException {
        assertThat(secondSpellings(ExportFiles.class, SHARED_NAMES.keySet())).isEmpty();
    }

    @Test
    void everySummaryKeyIsSpelledInSummaryCodecOnly() throws IOException {
        assertThat(secondSpellings(SummaryCodec.class, SHARED_KEYS.keySet())).isEmpty();
    }

    @Test
    void everyRecordKeyIsSpelledInRecordCodecOnly() throws IOException {
        assertThat(secondSpellings(RecordCodec.class, SHARED_RECORD_KEYS.keySet())).isEmpty();
    }

    @Test
    void everySearchResultKeyIsSpelledInSearchResultCodecOnly() throws IOException {
        assertThat(secondSpellings(SearchResultCodec.class, SHARED_SEARCH_KEYS.keySet())).isEmpty();
    }

    @Test
    void everyOutcomeKeyIsSpelledInItsCodecOnly() throws IOException {
        assertThat(secondSpellings(CellOutcomeCodec.class, SHARED_OUTCOME_KEYS.keySet())).isEmpty();
        assertThat(secondSpellings(RunOutcomeCodec.class, SHARED_OUTCOME_KEYS.keySet())).isEmpty();
    }

    @Test
    void everyGateResultKeyIsSpelledInGateResultCodecOnly() throws IOException {
        assertThat(secondSpellings(GateResultCodec.class, SHARED_GATE_KEYS.keySet())).isEmpty();
    }

    @Test
    void everyAggregateKeyIsSpelledInAggregateCodecOnly() throws IOException {
        assertThat(secondSpellings(AggregateCodec.class, SHARED_AGGREGATE_KEYS.keySet())).isEmpty();
    }

    /** The exceptions are real: each is a constant of its class, so a renamed constant cannot hide behind one. */
    @Test
    void theExceptionsNameRealConstants() {
        assertThat(constants(ExportFiles.class)).containsAll(SHARED_NAMES.keySet());
        assertThat(constants(SummaryCodec.class)).containsAll(SHARED_KEYS.keySet());
        assertThat(constants(RecordCodec.class)).containsAll(SHARED_RECORD_KEYS.keySet());
        assertThat(constants(SearchResultCodec.class)).containsAll(SHARED_SEARCH_KEYS.keySet());
        assertThat(constants(CellOutcomeCodec.class, RunOutcomeCodec.class)).containsAll(SHARED_OUTCOME_KEYS.keySet());
        assertThat(constants(GateResultCodec.class)).containsAll(SHARED_GATE_KEYS.keySet());
        assertThat(constants(AggregateCodec.class)).containsAll(SHARED_AGGREGATE_KEYS.keySet());
    }

    /** The scan finds a spelling where there is one. */
    @Test
    void theScanFindsTheOneSpelling() throws IOException {
        assertThat(sourcesSpelling("\"" + ExportFiles.SUMMARY_JSON + "\"", MAIN)).containsExactly(
                MAIN.resolve("io/aiperf/engine/summary/ExportFiles.java"));
    }

    private static Map<String, List<Path>> secondSpellings(final Class<?> owner, final Set<String> shared)
            throws IOException {
        final Path home = MAIN.resolve(owner.getName().replace('.', '/') + ".java");
        final Map<String, List<Path>> out = new TreeMap<>();
        for (final String value : constants(owner)) {
            if (shared.contains(value)) {
                continue;
            }
            final List<Path> files = sourcesSpelling("\"" + value + "\"", MAIN);
            files.remove(home);
            if (!files.isEmpty()) {
                out.put(value, files);
            }
        }
        return out;
    }

    private static List<String> constants(final Class<?>... owners) {
        final List<String> out = new ArrayList<>();
        for (final Field f : java.util.Arrays.stream(owners).flatMap(o -> java.util.Arrays.stream(o.getDeclaredFields()))
                .toList()) {
            if (Modifier.isStatic(f.getModifiers()) && Modifier.isPublic(f.getModifiers())
                    && f.getType() == String.class) {
                try {
                    out.add((String) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return out;
    }

    private static List<Path> sourcesSpelling(final String literal, final Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return new ArrayList<>(walk.filter(p -> p.toString().endsWith(".java")).filter(p -> {
                try {
                    return Files.readString(p).contains(literal);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).sorted().toList());
        }
    }
}
