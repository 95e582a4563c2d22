package io.aiperf.engine.dataset;

import java.nio.file.Path;
import java.util.Map;

/**
 * Fetches a model's tokenizer files into the Hugging Face cache when they are not there (src-docs/tokenizers.md);
 * the hub client lives outside this package, which the HTTP client depends on.
 */
@FunctionalInterface
public interface TokenizerDownloader {
    /**
     * @param cache the hub cache folder ({@code HF_HUB_CACHE}, else {@code HF_HOME/hub}, ...)
     * @return the cached {@code tokenizer.json}
     * @throws io.aiperf.engine.config.ConfigException in one line, when the hub does not have it or refuses it
     * @throws Unreachable in one line, when the hub cannot be reached at all
     */
    Path download(String repo, String revision, Path cache, Map<String, String> env);

    /** The hub did not answer (no route, no name, no connection): a machine without it, as opposed to a refusal. */
    final class Unreachable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unreachable(final String message) {
            super(message, null, false, false);
        }
    }
}
