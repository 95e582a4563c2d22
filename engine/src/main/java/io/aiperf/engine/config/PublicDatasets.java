package io.aiperf.engine.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds the local copy of a public dataset (src-docs/datasets.md): the path given, else the dataset cache
 * ({@code AIPERF_DATASET_CACHE}, else {@code ~/.cache/aiperf/datasets}). Nothing is downloaded: a machine without the
 * file gets an error naming every place searched, before any traffic. Stateless.
 */
public final class PublicDatasets {
    /** The ShareGPT file AIPerf's loader uses. */
    public static final String SHAREGPT_FILE = "ShareGPT_V3_unfiltered_cleaned_split.json";

    private PublicDatasets() {
    }

    /**
     * @param given a path from {@code --input-file} (a file, or a directory holding the dataset's file), or null
     */
    public static String locate(final String given, final String field, final Map<String, String> env) {
        final List<Path> candidates = new ArrayList<>();
        if (given != null) {
            final Path p = Path.of(given);
            candidates.add(Files.isDirectory(p) ? p.resolve(SHAREGPT_FILE) : p);
        } else {
            final String cache = env.get("AIPERF_DATASET_CACHE");
            if (cache != null && !cache.isBlank()) {
                candidates.add(Path.of(cache, SHAREGPT_FILE));
            }
            final String home = env.getOrDefault("HOME", System.getProperty("user.home"));
            candidates.add(Path.of(home, ".cache", "aiperf", "datasets", SHAREGPT_FILE));
        }
        for (final Path p : candidates) {
            if (Files.isRegularFile(p)) {
                return p.toString();
            }
        }
        throw new ConfigException(field, "no local copy of sharegpt found; searched: " + candidates
                + ". Download " + SHAREGPT_FILE + " (the ShareGPT_Vicuna_unfiltered dataset on the Hugging Face Hub) "
                + "and pass it with --input-file, or put it in one of those places");
    }
}
