package io.aiperf.engine.config;

/**
 * The KV-cache reset hook (control-hooks contract). Times in seconds as configured.
 *
 * @param path relative path joined to each origin
 * @param timeoutSeconds per-attempt timeout, independent of the request timeout
 * @param maxRetrySeconds retry budget per origin; 0 means exactly one attempt
 */
public record ResetKvCacheConfig(String path, double timeoutSeconds, double maxRetrySeconds) {
    public static final String DEFAULT_PATH = "/reset_prefix_cache";
    public static final double DEFAULT_TIMEOUT_SECONDS = 30.0;
    public static final double DEFAULT_MAX_RETRY_SECONDS = 60.0;

    public static ResetKvCacheConfig defaults() {
        return new ResetKvCacheConfig(DEFAULT_PATH, DEFAULT_TIMEOUT_SECONDS, DEFAULT_MAX_RETRY_SECONDS);
    }
}
