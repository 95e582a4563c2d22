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
 * Conversations from an input file (src-docs/datasets.md), one per JSONL row, in AIPerf's custom dataset formats:
 * <ul>
 *   <li>{@code single_turn} and {@code random_pool}: {@code text} (a string, or a list of strings joined by a
 *       space), optional {@code output_length}; {@code single_turn} rows may carry a {@code timestamp} (ms);</li>
 *   <li>{@code multi_turn}: {@code session_id} and {@code turns}, each turn a single_turn row with an optional
 *       {@code delay} (ms of think time after the previous reply); a leading {@code role: system} turn with only
 *       text becomes the conversation's system prompt;</li>
 *   <li>{@code mooncake_trace}: {@code input_length} (or {@code text_input}, the prompt itself), optional
 *       {@code output_length}, {@code hash_ids} and {@code timestamp} (ms). Each hash id stands for one block of {@code block_size} tokens, the same text for the
 *       same id in every row, so rows that share ids share a prompt prefix as the traced requests shared a KV
 *       cache; the last block holds the rest of {@code input_length}.</li>
 * </ul>
 * Deterministic for a given seed.
 * <p>
 * It is over 400 lines because it reads the four file formats above, which share row parsing, media inputs and the
 * errors that name a file's line.
 */
public final class FileDataset {
    private static final String FIELD = "--input-file (benchmark.dataset.path)";

    private FileDataset() {
    }

    /**
     * @param oslMean the output cap for rows without {@code output_length}, or null
     * @param schedule when the profiling phase replays the trace: only its window, in timestamp order; else null
     */
    public static List<Conversation> load(final DatasetConfig.InputFile file, final Double oslMean, final Long seed,
                                          final Tokenizer tokenizer, final PhaseConfig.Schedule schedule,
                                          final Long delayCapMs) {
        return load(file, oslMean, seed, tokenizer, schedule, delayCapMs, 100);
    }

    /**
     * @param entries the conversations drawn from a random_pool directory (one row of each pool file per
     *                conversation); unused otherwise
     */
    public static List<Conversation> load(final DatasetConfig.InputFile file, final Double oslMean, final Long seed,
                                          final Tokenizer tokenizer, final PhaseConfig.Schedule schedule,
                                          final Long delayCapMs, final int entries) {
        final Random random = seed == null ? new Random() : new Random(seed);
        if (java.nio.file.Files.isDirectory(java.nio.file.Path.of(file.path()))) {
            return file.format() == DatasetConfig.Format.RAW_PAYLOAD ? payloadDirectory(file, tokenizer, random)
                    : poolDirectory(file, oslMean, tokenizer, random, entries);
        }
        final Map<Long, String> blocks = new HashMap<>();
        final List<Conversation> out = new ArrayList<>();
        InputFiles.rows(file.path(), FIELD, (line, row) -> {
            final String id = new UUID(random.nextLong(), random.nextLong()).toString();
            if (file.format() == DatasetConfig.Format.MULTI_TURN) {
                out.add(conversation(row, line, file, oslMean, tokenizer, id, delayCapMs));
                return;
            }
            if (file.format() == DatasetConfig.Format.MOONCAKE_TRACE
                    && !file.synthesis().keeps(row.path("input_length").asLong(0))) {
                return; // above synthesis.max_isl
            }
            final Long timestamp = row.hasNonNull("timestamp") && !file.ignoreDelays()
                    ? file.synthesis().timestamp(row.get("timestamp").asLong()) : null;
            if (timestamp != null && file.format() == DatasetConfig.Format.RANDOM_POOL) {
                throw new ConfigException(FIELD, where(file, line) + "a random_pool row has no timestamp (pools are "
                        + "sampled, not replayed)");
            }
            final Integer osl = file.synthesis().outputLength(osl(row, line, file, oslMean));
            final List<String> passages = named(row, "passages");
            if (!passages.isEmpty() && file.format() != DatasetConfig.Format.MOONCAKE_TRACE) {
                // A rankings row: {"texts": [{"name": "query", "contents": [...]}, {"name": "passages", ...}]}
                final List<String> query = named(row, "query");
                if (query.isEmpty()) {
                    throw new ConfigException(FIELD, where(file, line) + "a row with passages needs a query");
                }
                int tokens = tokenizer.count(query.get(0));
                for (final String p : passages) {
                    tokens += tokenizer.count(p);
                }
                out.add(new Conversation(id, null, 0, List.of(new Conversation.Turn(query.get(0), tokens, osl, 0,
                        passages)), timestamp));
                return;
            }
            if (file.format() == DatasetConfig.Format.RAW_PAYLOAD) {
                out.add(new Conversation(id, null, 0, List.of(rawPayload(row, line, file, tokenizer)), timestamp));
                return;
            }
            if (file.format() == DatasetConfig.Format.MOONCAKE_TRACE) {
                final String prompt = trace(row, line, file, blocks, tokenizer, random);
                out.add(new Conversation(id, null, 0, List.of(new Conversation.Turn(prompt, tokenizer.count(prompt), osl,
                        0, List.of(), List.of(), null, extra(row, line, file))), timestamp));
                return;
            }
            final String prompt = text(row, line, file, "row");
            out.add(new Conversation(id, null, 0, List.of(new Conversation.Turn(prompt, tokenizer.count(prompt), osl, 0,
                    List.of(), media(row, line, file), null, extra(row, line, file))), timestamp));
        });
        if (schedule == null) {
            return out;
        }
        final List<Conversation> window = new ArrayList<>();
        for (final Conversation c : out) {
            if (c.timestampMs() != null && schedule.includes(c.timestampMs())) {
                window.add(c);
            }
        }
        window.sort(Comparator.comparingLong(Conversation::timestampMs)); // stable: ties keep file order
        return window;
    }

    private static Conversation conversation(final JsonNode row, final int line, final DatasetConfig.InputFile file,
                                             final Double oslMean, final Tokenizer tokenizer, final String fallbackId,
                                             final Long delayCapMs) {
        final JsonNode turns = row.get("turns");
        if (turns == null || !turns.isArray() || turns.isEmpty()) {
            throw new ConfigException(FIELD, where(file, line) + "a multi_turn row needs a non-empty list of turns");
        }
        final String id = row.hasNonNull("session_id") ? row.get("session_id").asText() : fallbackId;
        String system = null;
        int first = 0;
        final JsonNode lead = turns.get(0);
        if ("system".equals(lead.path("role").asText()) && !lead.has("delay") && !lead.has("timestamp")
                && !lead.has("output_length") && !MediaInputs.present(lead)) {
            system = text(lead, line, file, "system turn");
            first = 1;
        }
        final List<Conversation.Turn> out = new ArrayList<>();
        Long start = null;
        Long previous = null;
        for (int i = first; i < turns.size(); i++) {
            final JsonNode turn = turns.get(i);
            final String what = "turn " + (i + 1);
            if (!turn.isObject()) {
                throw new ConfigException(FIELD, where(file, line) + what + " must be an object");
            }
            final String prompt = text(turn, line, file, what);
            long delay = 0;
            if (turn.hasNonNull("delay")) {
                delay = nonNegative(turn, "delay", line, file, what);
            }
            if (turn.hasNonNull("timestamp")) {
                final long ts = nonNegative(turn, "timestamp", line, file, what);
                if (previous != null && ts < previous) {
                    throw new ConfigException(FIELD, where(file, line) + what + " timestamp is before the turn "
                            + "before it");
                }
                if (previous != null && !turn.hasNonNull("delay")) {
                    delay = ts - previous; // a later turn's timestamp: its gap from the turn before (documented)
                }
                start = start == null ? ts : start;
                previous = ts;
            }
            if (file.ignoreDelays() || out.isEmpty()) {
                delay = 0;
            } else if (delayCapMs != null) {
                delay = Math.min(delay, delayCapMs);
            }
            if (delay > MAX_TURN_DELAY_MS) {
                throw new ConfigException(FIELD, where(file, line) + what + " waits " + delay + " ms ("
                        + String.format(java.util.Locale.ROOT, "%.1f", delay / 86_400_000.0) + " days) after the "
                        + "turn before, above the 24-hour limit; give milliseconds, or cap think times with "
                        + "--inter-turn-delay-cap-seconds, or drop them with --ignore-trace-delays");
            }
            out.add(new Conversation.Turn(prompt, tokenizer.count(prompt), osl(turn, line, file, oslMean), delay,
                    List.of(), media(turn, line, file), null, extra(turn, line, file)));
        }
        if (out.isEmpty()) {
            throw new ConfigException(FIELD, where(file, line) + "a multi_turn row needs a user turn after its system "
                    + "turn");
        }
        return new Conversation(id, system, tokenizer.count(system), out, file.ignoreDelays() ? null : start);
    }

    /**
     * A {@code raw_payload} row: the body is sent as it is; its text (message contents, {@code prompt} or
     * {@code input}) is what ISL counts, and its own token cap ({@code max_completion_tokens}, {@code max_tokens})
     * is the requested output length.
     */
    private static Conversation.Turn rawPayload(final JsonNode row, final int line, final DatasetConfig.InputFile file,
                                                final Tokenizer tokenizer) {
        final StringBuilder text = new StringBuilder();
        final JsonNode messages = row.path("messages").isArray() ? row.path("messages") : row.path("input");
        if (messages.isArray()) {
            for (final JsonNode m : messages) {
                final JsonNode content = m.isObject() ? m.path("content") : m;
                if (content.isTextual()) {
                    text.append(text.length() > 0 ? "\n" : "").append(content.asText());
                }
                if (content.isArray()) {
                    for (final JsonNode part : content) {
                        if (part.path("text").isTextual()) {
                            text.append(text.length() > 0 ? "\n" : "").append(part.path("text").asText());
                        }
                    }
                }
            }
        } else if (row.path("prompt").isTextual() || row.path("input").isTextual()) {
            text.append(row.path("prompt").isTextual() ? row.path("prompt").asText() : row.path("input").asText());
        }
        if (row.size() == 0) {
            throw new ConfigException(FIELD, where(file, line) + "a raw_payload row must be a non-empty JSON object "
                    + "(the request body)");
        }
        final JsonNode cap = row.hasNonNull("max_completion_tokens") ? row.get("max_completion_tokens")
                : row.get("max_tokens");
        final String prompt = text.toString();
        return new Conversation.Turn(prompt, tokenizer.count(prompt), cap != null && cap.canConvertToInt()
                ? cap.asInt() : null, 0, List.of(), List.of(), row.toString());
    }

    /**
     * A raw_payload directory: each {@code .jsonl} file one conversation (sorted by name), its lines the turns, each
     * sent as written; a line carries the whole history it needs, as upstream's directory form does.
     */
    private static List<Conversation> payloadDirectory(final DatasetConfig.InputFile file, final Tokenizer tokenizer,
                                                       final Random random) {
        final List<Conversation> out = new ArrayList<>();
        for (final java.nio.file.Path f : InputFiles.directoryFiles(file.path(), FIELD)) {
            final DatasetConfig.InputFile one = withPath(file, f.toString());
            final List<Conversation.Turn> turns = new ArrayList<>();
            InputFiles.rows(f.toString(), FIELD, (line, row) -> turns.add(rawPayload(row, line, one, tokenizer)));
            if (!turns.isEmpty()) {
                out.add(new Conversation(new UUID(random.nextLong(), random.nextLong()).toString(), null, 0, turns,
                        null));
            }
        }
        if (out.isEmpty()) {
            throw new ConfigException(FIELD, file.path() + " holds no rows");
        }
        return out;
    }

    /**
     * A random_pool directory: each {@code .jsonl} file one pool; each of {@code entries} conversations is one turn
     * made of a row drawn (with replacement) from every pool, texts joined in file order, as upstream merges them.
     */
    private static List<Conversation> poolDirectory(final DatasetConfig.InputFile file, final Double oslMean,
                                                    final Tokenizer tokenizer, final Random random, final int entries) {
        final List<List<Conversation.Turn>> pools = new ArrayList<>();
        for (final java.nio.file.Path f : InputFiles.directoryFiles(file.path(), FIELD)) {
            final DatasetConfig.InputFile one = withPath(file, f.toString());
            final List<Conversation.Turn> pool = new ArrayList<>();
            InputFiles.rows(f.toString(), FIELD, (line, row) -> {
                if (row.hasNonNull("timestamp")) {
                    throw new ConfigException(FIELD, where(one, line) + "a random_pool row has no timestamp (pools "
                            + "are sampled, not replayed)");
                }
                pool.add(new Conversation.Turn(text(row, line, one, "row"), 0, osl(row, line, one, oslMean), 0,
                        List.of(), media(row, line, one), null, extra(row, line, one)));
            });
            if (!pool.isEmpty()) {
                pools.add(pool);
            }
        }
        if (pools.isEmpty()) {
            throw new ConfigException(FIELD, file.path() + " holds no rows");
        }
        final List<Conversation> out = new ArrayList<>(entries);
        for (int i = 0; i < entries; i++) {
            final List<String> texts = new ArrayList<>();
            final List<Conversation.Media> media = new ArrayList<>();
            com.fasterxml.jackson.databind.node.ObjectNode extra = null;
            Integer osl = null;
            for (final List<Conversation.Turn> pool : pools) {
                final Conversation.Turn t = pool.get(random.nextInt(pool.size()));
                if (!t.prompt().isEmpty()) {
                    texts.add(t.prompt());
                }
                media.addAll(t.media());
                osl = osl == null ? t.outputTokens() : osl;
                if (t.extra() != null) {
                    extra = extra == null ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                            : extra;
                    extra.setAll(t.extra());
                }
            }
            final String prompt = String.join(" ", texts);
            out.add(new Conversation(new UUID(random.nextLong(), random.nextLong()).toString(), null, 0,
                    List.of(new Conversation.Turn(prompt, tokenizer.count(prompt), osl, 0, List.of(), media, null,
                            extra)), null));
        }
        return out;
    }

    private static DatasetConfig.InputFile withPath(final DatasetConfig.InputFile file, final String path) {
        return new DatasetConfig.InputFile(path, file.format(), file.blockSize(), file.timestampsMs(),
                file.ignoreDelays(), file.mediaRoots(), file.synthesis());
    }

    /** A row's {@code extra}: fields merged into its request body (upstream's per-row extra), or null. */
    private static com.fasterxml.jackson.databind.node.ObjectNode extra(final JsonNode row, final int line,
                                                                       final DatasetConfig.InputFile file) {
        final JsonNode extra = row.get("extra");
        if (extra == null || extra.isNull()) {
            return null;
        }
        if (!extra.isObject()) {
            throw new ConfigException(FIELD, where(file, line) + "extra must be an object of request body fields");
        }
        return (com.fasterxml.jackson.databind.node.ObjectNode) extra;
    }

    /** The contents of the {@code texts} entry named {@code name}, or none. */
    private static List<String> named(final JsonNode row, final String name) {
        final List<String> out = new ArrayList<>();
        for (final JsonNode t : row.path("texts")) {
            if (name.equals(t.path("name").asText())) {
                t.path("contents").forEach(c -> out.add(c.asText()));
            }
        }
        return out;
    }

    /** The longest think time a turn may ask for: a longer one is a unit mistake that would stall the run. */
    static final long MAX_TURN_DELAY_MS = 24L * 3_600_000L;

    private static Integer osl(final JsonNode row, final int line, final DatasetConfig.InputFile file,
                               final Double oslMean) {
        if (row.hasNonNull("output_length")) {
            return positive(row, "output_length", line, file);
        }
        return oslMean == null ? null : (int) Math.round(oslMean);
    }

    /**
     * The row's images and audio; files are read relative to the working directory, then to the input file, and
     * must lie (symbolic links resolved) under the input file's folder or a {@code --media-root}.
     */
    private static List<Conversation.Media> media(final JsonNode row, final int line,
                                                  final DatasetConfig.InputFile file) {
        final java.nio.file.Path base = java.nio.file.Path.of(file.path()).toAbsolutePath().getParent();
        final List<java.nio.file.Path> roots = new java.util.ArrayList<>();
        roots.add(base);
        file.mediaRoots().forEach(r -> roots.add(java.nio.file.Path.of(r)));
        return MediaInputs.of(row, base, roots, FIELD, where(file, line));
    }

    private static String text(final JsonNode row, final int line, final DatasetConfig.InputFile file,
                               final String what) {
        if (row.hasNonNull("delay") && file.format() != DatasetConfig.Format.MULTI_TURN) {
            throw new ConfigException(FIELD, where(file, line) + "'delay' belongs to multi_turn turns");
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
        if (text == null && MediaInputs.present(row)) {
            return ""; // an image or audio alone, as upstream allows
        }
        throw new ConfigException(FIELD, where(file, line) + "a " + file.format().wireName() + " " + what
                + " needs a non-empty text");
    }

    private static String trace(final JsonNode row, final int line, final DatasetConfig.InputFile file,
                                final Map<Long, String> blocks, final Tokenizer tokenizer, final Random random) {
        final JsonNode textInput = row.get("text_input");
        if (textInput != null && !textInput.isNull()) {
            if (!textInput.isTextual() || textInput.asText().isBlank()) {
                throw new ConfigException(FIELD, where(file, line) + "text_input must be a non-empty string");
            }
            if (row.hasNonNull("hash_ids") && !row.hasNonNull("input_length")) {
                throw new ConfigException(FIELD, where(file, line) + "hash_ids need input_length (each id is a block "
                        + "of its tokens)");
            }
            return textInput.asText(); // the traced prompt itself, sent as written (upstream's text_input rows)
        }
        if (!row.hasNonNull("input_length")) {
            throw new ConfigException(FIELD, where(file, line) + "a mooncake_trace row needs input_length or "
                    + "text_input");
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

    private static long nonNegative(final JsonNode row, final String key, final int line,
                                    final DatasetConfig.InputFile file, final String what) {
        final JsonNode v = row.get(key);
        if (!v.isNumber() || v.asLong() < 0) {
            throw new ConfigException(FIELD, where(file, line) + what + " " + key + " must be a number of "
                    + "milliseconds, 0 or more");
        }
        return v.asLong();
    }

    private static String where(final DatasetConfig.InputFile file, final int line) {
        return file.path() + " line " + line + ": ";
    }
}
