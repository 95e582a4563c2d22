package io.aiperf.engine.dataset;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.config.ConfigException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * ShareGPT from a local copy of {@code ShareGPT_V3_unfiltered_cleaned_split.json} (AIPerf's public dataset docs):
 * each conversation's first human turn is the prompt and the first reply's token count its output cap, with the
 * length filter AIPerf and vLLM's bench use (prompt and reply 4 tokens or more, prompt at most 1,024, both at most
 * 2,048). The file, often hundreds of megabytes, is streamed; the conversations are taken in a seeded random order
 * until {@code entries} pass the filter. Deterministic for a given seed.
 */
public final class ShareGptDataset {
    /** The file name AIPerf's loader downloads and caches. */
    public static final String FILE_NAME = "ShareGPT_V3_unfiltered_cleaned_split.json";
    private static final String FIELD = "--public-dataset (benchmark.dataset.public_dataset)";
    private static final int MIN_TOKENS = 4;
    private static final int MAX_PROMPT_TOKENS = 1024;
    private static final int MAX_TOTAL_TOKENS = 2048;

    private ShareGptDataset() {
    }

    /**
     * @param oslMean an output cap that replaces each reply's length, or null
     */
    public static List<Conversation> load(final String path, final int entries, final Double oslMean,
                                          final Long seed, final Tokenizer tokenizer) {
        final List<String[]> pairs = pairs(path);
        final Random random = seed == null ? new Random() : new Random(seed);
        Collections.shuffle(pairs, random);
        final List<Conversation> out = new ArrayList<>(entries);
        for (final String[] pair : pairs) {
            if (out.size() == entries) {
                break;
            }
            final int prompt = tokenizer.count(pair[0]);
            final int reply = tokenizer.count(pair[1]);
            if (prompt < MIN_TOKENS || reply < MIN_TOKENS || prompt > MAX_PROMPT_TOKENS
                    || prompt + reply > MAX_TOTAL_TOKENS) {
                continue;
            }
            out.add(Conversation.single(new UUID(random.nextLong(), random.nextLong()).toString(), pair[0], prompt,
                    oslMean == null ? reply : (int) Math.round(oslMean), null));
        }
        if (out.isEmpty()) {
            throw new ConfigException(FIELD, path + ": no conversation has a human turn and a reply within the "
                    + "length filter");
        }
        return out;
    }

    /** (prompt, reply) of each conversation that starts with a human turn followed by a reply. */
    private static List<String[]> pairs(final String path) {
        final ObjectMapper json = new ObjectMapper();
        final List<String[]> out = new ArrayList<>();
        try (JsonParser p = json.getFactory().createParser(Path.of(path).toFile())) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw new ConfigException(FIELD, path + ": expected a JSON list of conversations");
            }
            int index = 0;
            while (p.nextToken() == JsonToken.START_OBJECT) {
                final JsonNode item = json.readTree(p);
                index++;
                final JsonNode turns = item.path("conversations");
                if (turns.size() < 2) {
                    continue;
                }
                final JsonNode first = turns.get(0);
                final JsonNode second = turns.get(1);
                if (!"human".equals(first.path("from").asText()) || !first.path("value").isTextual()
                        || !second.path("value").isTextual()) {
                    continue;
                }
                out.add(new String[] {first.get("value").asText(), second.get("value").asText()});
            }
            if (p.currentToken() != JsonToken.END_ARRAY) {
                throw new ConfigException(FIELD, path + ": item " + (index + 1) + " is not a conversation object");
            }
        } catch (IOException e) {
            throw new ConfigException(FIELD, "cannot read " + path + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
        return out;
    }
}
