package io.aiperf.engine.dataset;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A model's own tokenizer from its {@code tokenizer.json}, run by Hugging Face's tokenizers library (through DJL, whose
 * jar carries the native library: nothing is downloaded). Counts without special tokens, as upstream AIPerf does for
 * ISL and OSL. Thread-safe.
 */
final class HfTokenizer implements Tokenizer {
    private final HuggingFaceTokenizer tokenizer;
    private final String name;
    private final String source;
    private final String revision;
    private final int vocabularySize;
    private final Path file;

    private HfTokenizer(final HuggingFaceTokenizer tokenizer, final String name, final String source,
                        final String revision, final int vocabularySize, final Path file) {
        this.tokenizer = tokenizer;
        this.file = file;
        this.name = name;
        this.source = source;
        this.revision = revision;
        this.vocabularySize = vocabularySize;
    }

    /** @throws IOException when the file is not a tokenizer the library can read */
    static HfTokenizer load(final Path tokenizerJson, final String name, final String source, final String revision)
            throws IOException {
        try {
            return new HfTokenizer(HuggingFaceTokenizer.newInstance(tokenizerJson, Map.of("addSpecialTokens", "false",
                    "truncation", "false", "padding", "false")), name, source, revision, vocabularySize(tokenizerJson),
                    tokenizerJson);
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            throw new IOException("cannot read " + tokenizerJson + " as a Hugging Face tokenizer: " + e.getMessage(), e);
        }
    }

    @Override
    public int count(final String text) {
        return text == null || text.isEmpty() ? 0 : tokenizer.encode(text, false, false).getIds().length;
    }

    /** The highest token id in the file's vocabulary and added tokens, plus one. */
    private static int vocabularySize(final Path tokenizerJson) throws IOException {
        final JsonNode root = new ObjectMapper().readTree(tokenizerJson.toFile());
        int max = -1;
        final JsonNode vocab = root.path("model").path("vocab");
        if (vocab.isObject()) {
            for (final JsonNode id : vocab) {
                max = Math.max(max, id.asInt());
            }
        } else if (vocab.isArray()) {
            max = vocab.size() - 1; // Unigram: a list of [piece, score], the id is the position
        }
        for (final JsonNode added : root.path("added_tokens")) {
            max = Math.max(max, added.path("id").asInt(-1));
        }
        return max + 1;
    }

    @Override
    public Path file() {
        return file;
    }

    @Override
    public String revision() {
        return revision;
    }

    @Override
    public int vocabularySize() {
        return vocabularySize;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String source() {
        return source;
    }
}
