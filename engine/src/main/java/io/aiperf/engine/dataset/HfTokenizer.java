package io.aiperf.engine.dataset;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
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

    private HfTokenizer(final HuggingFaceTokenizer tokenizer, final String name, final String source) {
        this.tokenizer = tokenizer;
        this.name = name;
        this.source = source;
    }

    /** @throws IOException when the file is not a tokenizer the library can read */
    static HfTokenizer load(final Path tokenizerJson, final String name, final String source) throws IOException {
        try {
            return new HfTokenizer(HuggingFaceTokenizer.newInstance(tokenizerJson, Map.of("addSpecialTokens", "false",
                    "truncation", "false", "padding", "false")), name, source);
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            throw new IOException("cannot read " + tokenizerJson + " as a Hugging Face tokenizer: " + e.getMessage(), e);
        }
    }

    @Override
    public int count(final String text) {
        return text == null || text.isEmpty() ? 0 : tokenizer.encode(text, false, false).getIds().length;
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
