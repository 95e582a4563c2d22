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
     * @throws io.aiperf.engine.config.ConfigException in one line, when it cannot be had
     */
    Path download(String repo, String revision, Path cache, Map<String, String> env);
}
