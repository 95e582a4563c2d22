package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Reads a JSONL input file row by row (src-docs/datasets.md): each non-empty line one JSON object. Problems name the
 * file, the line and the field, before any traffic. Stateless.
 */
public final class InputFiles {
    private static final ObjectMapper JSON = new ObjectMapper();

    private InputFiles() {
    }

    /** Calls {@code row} with each object and its 1-based line number. */
    public static void rows(final String path, final String field, final BiConsumer<Integer, JsonNode> row) {
        final Path file = Path.of(path);
        if (Files.isDirectory(file)) {
            throw new ConfigException(field, path + " is a directory: only raw_payload (a conversation per file) and "
                    + "random_pool (a pool per file) read one");
        }
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(field, "input file not found: " + file.toAbsolutePath());
        }
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                final JsonNode node;
                try {
                    node = JSON.readTree(line);
                } catch (IOException e) {
                    throw new ConfigException(field, path + " line " + number + ": not valid JSON ("
                            + e.getMessage().lines().findFirst().orElse("") + ")");
                }
                if (!node.isObject()) {
                    throw new ConfigException(field, path + " line " + number + ": expected a JSON object");
                }
                row.accept(number, node);
            }
        } catch (IOException e) {
            throw new ConfigException(field, "cannot read " + path + ": " + e.getMessage());
        }
    }

    /**
     * The {@code .jsonl} files of an input directory (raw_payload conversations, random_pool pools), sorted by name as
     * upstream reads them; at least one.
     */
    public static List<Path> directoryFiles(final String path, final String field) {
        try (java.util.stream.Stream<Path> list = Files.list(Path.of(path))) {
            final List<Path> files = list.filter(f -> Files.isRegularFile(f) && f.getFileName().toString().endsWith(".jsonl"))
                    .sorted().toList();
            if (files.isEmpty()) {
                throw new ConfigException(field, "input directory " + path + " holds no .jsonl file");
            }
            return files;
        } catch (IOException e) {
            throw new ConfigException(field, "cannot read " + path + ": " + e.getMessage());
        }
    }

    /**
     * Each row's {@code timestamp} in milliseconds, in file order (a multi_turn row's: its first turn's); null for a
     * row without one.
     */
    static List<Long> timestamps(final String path, final String field, final DatasetConfig.Format format,
                                 final DatasetConfig.Synthesis synthesis) {
        final List<Long> out = new ArrayList<>();
        if (Files.isDirectory(Path.of(path))) {
            directoryFiles(path, field).forEach(f -> out.add(null)); // conversations and pools carry no schedule
            return out;
        }
        rows(path, field, (number, row) -> {
            JsonNode node = row;
            if (format == DatasetConfig.Format.MULTI_TURN) {
                final JsonNode turns = row.path("turns");
                final JsonNode lead = turns.path(0);
                node = "system".equals(lead.path("role").asText()) ? turns.path(1) : lead;
            }
            if (format == DatasetConfig.Format.MOONCAKE_TRACE && !synthesis.keeps(row.path("input_length").asLong(0))) {
                return; // dropped by synthesis.max_isl, as the dataset drops it
            }
            final JsonNode ts = node.get("timestamp");
            if (ts != null && !ts.isNull() && !(ts.isNumber() && ts.asLong() >= 0)) {
                throw new ConfigException(field, path + " line " + number + ": timestamp must be a number of "
                        + "milliseconds, 0 or more");
            }
            out.add(ts == null || ts.isNull() ? null : synthesis.timestamp(ts.asLong()));
        });
        if (out.isEmpty()) {
            throw new ConfigException(field, path + " has no rows");
        }
        return out;
    }
}
