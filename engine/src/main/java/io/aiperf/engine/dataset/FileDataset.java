package io.aiperf.engine.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.DatasetConfig;
import io.aiperf.engine.config.InputFiles;
import io.aiperf.engine.config.PhaseConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Prompts from an input file (src-docs/datasets.md), one per JSONL row, in AIPerf's custom dataset formats:
 * <ul>
 *   <li>{@code single_turn}: {@code text} (a string, or a list of strings joined by a space), optional
 *       {@code output_length} and {@code timestamp} (ms);</li>
 *   <li>{@code mooncake_trace}: {@code input_length}, optional {@code output_length}, {@code hash_ids} and
 *       {@code timestamp} (ms). Each hash id stands for one block of {@code block_size} tokens, the same text for the
 *       same id in every row, so rows that share ids share a prompt prefix as the traced requests shared a KV
 *       cache; the last block holds the rest of {@code input_length}.</li>
 * </ul>
 * Deterministic for a given seed.
 */
public final class FileDataset {
    private static final String FIELD = "--input-file (benchmark.dataset.path)";

    private FileDataset() {
    }

    /**
     * @param oslMean the output cap for rows without {@code output_length}, or null
     * @param schedule when the profiling phase replays the trace: only its window, in timestamp order; else null
     */
    public static List<DatasetEntry> load(final DatasetConfig.InputFile file, final Double oslMean, final Long seed,
                                          final Tokenizer tokenizer, final PhaseConfig.Schedule schedule) {
        final Random random = seed == null ? new Random() : new Random(seed);
        final Map<Long, String> blocks = new HashMap<>();
        final List<DatasetEntry> out = new ArrayList<>();
        InputFiles.rows(file.path(), FIELD, (line, row) -> {
            final Long timestamp = row.hasNonNull("timestamp") ? row.get("timestamp").asLong() : null;
            final Integer osl = row.hasNonNull("output_length") ? positive(row, "output_length", line, file)
                    : oslMean == null ? null : (int) Math.round(oslMean);
            final String prompt = switch (file.format()) {
                case SINGLE_TURN -> text(row, line, file);
                case MOONCAKE_TRACE -> trace(row, line, file, blocks, tokenizer, random);
            };
            out.add(new DatasetEntry(new UUID(random.nextLong(), random.nextLong()).toString(), prompt,
                    tokenizer.count(prompt), osl, timestamp));
        });
        if (schedule == null) {
            return out;
        }
        final List<DatasetEntry> window = new ArrayList<>();
        for (final DatasetEntry e : out) {
            if (e.timestampMs() != null && schedule.includes(e.timestampMs())) {
                window.add(e);
            }
        }
        window.sort(Comparator.comparingLong(DatasetEntry::timestampMs)); // stable: ties keep file order
        return window;
    }

    private static String text(final JsonNode row, final int line, final DatasetConfig.InputFile file) {
        for (final String unsupported : List.of("image", "images", "audio", "audios", "delay")) {
            if (row.hasNonNull(unsupported)) {
                throw new ConfigException(FIELD, where(file, line) + "'" + unsupported + "' is not supported yet; "
                        + "rows need text");
            }
        }
        final JsonNode text = row.has("text") ? row.get("text") : row.get("texts");
        if (text != null && text.isTextual() && !text.asText().isBlank()) {
            return text.asText();
        }
        if (text != null && text.isArray() && !text.isEmpty()) {
            final List<String> parts = new ArrayList<>();
            text.forEach(t -> parts.add(t.isTextual() ? t.asText() : t.path("contents").path(0).asText(t.toString())));
            return String.join(" ", parts);
        }
        throw new ConfigException(FIELD, where(file, line) + "a single_turn row needs a non-empty text");
    }

    private static String trace(final JsonNode row, final int line, final DatasetConfig.InputFile file,
                                final Map<Long, String> blocks, final Tokenizer tokenizer, final Random random) {
        if (!row.hasNonNull("input_length")) {
            throw new ConfigException(FIELD, where(file, line) + "a mooncake_trace row needs input_length");
        }
        final int length = positive(row, "input_length", line, file);
        final JsonNode ids = row.get("hash_ids");
        if (ids == null || ids.isNull() || ids.isEmpty()) {
            return SyntheticDataset.prompt(length, random.nextInt(Integer.MAX_VALUE), tokenizer);
        }
        if (!ids.isArray()) {
            throw new ConfigException(FIELD, where(file, line) + "hash_ids must be a list of integers");
        }
        final int n = ids.size();
        final int block = file.blockSize();
        if (length <= (n - 1) * block) {
            throw new ConfigException(FIELD, where(file, line) + "input_length " + length + " is too short for "
                    + n + " hash ids of " + block + " tokens (it must exceed " + (n - 1) * block + ")");
        }
        final StringBuilder prompt = new StringBuilder();
        for (int i = 0; i < n; i++) {
            final long id = ids.get(i).asLong();
            final int tokens = i < n - 1 ? block : length - (n - 1) * block;
            final String text = tokens == block ? blocks.computeIfAbsent(id, k -> blockText(k, block, tokenizer))
                    : blockText(id, tokens, tokenizer);
            if (prompt.length() > 0) {
                prompt.append(' ');
            }
            prompt.append(text);
        }
        return prompt.toString();
    }

    /** The text of a hash id's block: the same for the same id and length, different for different ids. */
    private static String blockText(final long id, final int tokens, final Tokenizer tokenizer) {
        return SyntheticDataset.prompt(tokens, (int) Math.floorMod(id * 0x9E3779B97F4A7C15L, 1L << 30), tokenizer);
    }

    private static int positive(final JsonNode row, final String key, final int line,
                                final DatasetConfig.InputFile file) {
        final JsonNode v = row.get(key);
        if (!v.canConvertToInt() || v.asInt() < 1) {
            throw new ConfigException(FIELD, where(file, line) + key + " must be a whole number, 1 or more");
        }
        return v.asInt();
    }

    private static String where(final DatasetConfig.InputFile file, final int line) {
        return file.path() + " line " + line + ": ";
    }
}
