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
     * Each row's {@code timestamp} in milliseconds, in file order (a multi_turn row's: its first turn's); null for a
     * row without one.
     */
    static List<Long> timestamps(final String path, final String field, final DatasetConfig.Format format) {
        final List<Long> out = new ArrayList<>();
        rows(path, field, (number, row) -> {
            JsonNode node = row;
            if (format == DatasetConfig.Format.MULTI_TURN) {
                final JsonNode turns = row.path("turns");
                final JsonNode lead = turns.path(0);
                node = "system".equals(lead.path("role").asText()) ? turns.path(1) : lead;
            }
            final JsonNode ts = node.get("timestamp");
            if (ts != null && !ts.isNull() && !(ts.isNumber() && ts.asLong() >= 0)) {
                throw new ConfigException(field, path + " line " + number + ": timestamp must be a number of "
                        + "milliseconds, 0 or more");
            }
            out.add(ts == null || ts.isNull() ? null : ts.asLong());
        });
        if (out.isEmpty()) {
            throw new ConfigException(field, path + " has no rows");
        }
        return out;
    }
}
