package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The format of an {@code --input-file} given without {@code --custom-dataset-type}, told from its first row as
 * upstream AIPerf does (src-docs/datasets.md, format detection): {@code turns} is multi_turn, a {@code messages} list
 * is raw_payload (unless the row has a {@code conversation_id} or a {@code data} list), {@code input_length},
 * {@code hash_ids} or {@code text_input} is mooncake_trace, a text, image or audio field is single_turn. A directory is raw_payload when its
 * first {@code .jsonl} file's first row is a request body, else random_pool (one pool per file). Stateless.
 */
public final class FormatDetector {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SINGLE_TURN_FIELDS = List.of("text", "texts", "image", "images", "audio",
            "audios");

    private FormatDetector() {
    }

    public static DatasetConfig.Format detect(final String path, final String field) {
        final Path p = Path.of(path);
        if (Files.isDirectory(p)) {
            final List<Path> files = InputFiles.directoryFiles(path, field);
            final JsonNode row = firstRow(files.get(0), field);
            return row != null && rawPayload(row) ? DatasetConfig.Format.RAW_PAYLOAD : DatasetConfig.Format.RANDOM_POOL;
        }
        if (!Files.isRegularFile(p)) {
            throw new ConfigException(field, "input file not found: " + p.toAbsolutePath());
        }
        final JsonNode row = firstRow(p, field);
        if (row == null) {
            throw new ConfigException(field, path + " has no rows");
        }
        if (row.path("type").isTextual()) {
            final String type = row.path("type").asText().toUpperCase(Locale.ROOT).replace('-', '_');
            for (final DatasetConfig.Format f : DatasetConfig.Format.values()) {
                if (f.name().equals(type)) {
                    return f;
                }
            }
        }
        if (row.path("turns").isArray()) {
            return DatasetConfig.Format.MULTI_TURN;
        }
        if (rawPayload(row)) {
            return DatasetConfig.Format.RAW_PAYLOAD;
        }
        if (row.has("input_length") || row.has("hash_ids") || row.has("text_input")) {
            return DatasetConfig.Format.MOONCAKE_TRACE;
        }
        if (SINGLE_TURN_FIELDS.stream().anyMatch(row::has)) {
            return DatasetConfig.Format.SINGLE_TURN;
        }
        final List<String> names = new ArrayList<>();
        final Iterator<String> it = row.fieldNames();
        it.forEachRemaining(names::add);
        throw new ConfigException(field, "cannot tell the format of " + path + " from its first row (fields " + names
                + "): give --custom-dataset-type single_turn, multi_turn, random_pool, mooncake_trace or raw_payload");
    }

    /** A complete chat request body, as upstream's raw_payload detection sees one. */
    private static boolean rawPayload(final JsonNode row) {
        return row.path("messages").isArray() && !row.has("conversation_id") && !row.path("data").isArray();
    }

    /** The first non-blank line of a file as JSON, or null for an empty file. */
    private static JsonNode firstRow(final Path file, final String field) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
             Stream<String> lines = in.lines()) {
            final String line = lines.filter(l -> !l.isBlank()).findFirst().orElse(null);
            if (line == null) {
                return null;
            }
            final JsonNode row = JSON.readTree(line);
            if (!row.isObject()) {
                throw new ConfigException(field, file + " first row: expected a JSON object");
            }
            return row;
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new ConfigException(field, file + ": not valid JSONL (" + e.getMessage().lines().findFirst()
                    .orElse("") + ")");
        }
    }
}
