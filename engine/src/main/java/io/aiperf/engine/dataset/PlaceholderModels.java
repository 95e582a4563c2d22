package io.aiperf.engine.dataset;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Model names that are placeholders ({@code mock-model}, {@code test-model}, {@code my-model}, ...), the names
 * tutorials and mock servers use. Upstream AIPerf 0.13 counts tokens for such a name with its builtin tokenizer
 * instead of looking it up on the Hugging Face hub (where it is missing, or is someone's unrelated repository), and
 * so does {@link TokenizerResolver} when {@code --tokenizer} is not given. The rule is upstream's: a name with a path
 * separator, or starting with {@code .} or {@code ~}, is never one; otherwise, lower-cased with {@code _} read as
 * {@code -}, it is one of a few bare words or contains a hyphenated marker. Stateless.
 */
public final class PlaceholderModels {
    private static final Set<String> WORDS = Set.of("test", "mock", "fake", "dummy", "example", "sample",
            "placeholder");
    private static final List<String> MARKERS = List.of("mock-", "-mock", "fake-", "-fake", "test-model",
            "your-model", "my-model", "model-name", "model-id");

    private PlaceholderModels() {
    }

    /** Whether {@code name} is a placeholder model name rather than a tokenizer to look for. */
    public static boolean isPlaceholder(final String name) {
        if (name == null || name.isEmpty() || name.contains("/") || name.contains("\\") || name.startsWith(".")
                || name.startsWith("~")) {
            return false;
        }
        final String n = name.toLowerCase(Locale.ROOT).replace('_', '-');
        return WORDS.contains(n) || MARKERS.stream().anyMatch(n::contains);
    }
}
