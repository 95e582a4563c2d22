package io.aiperf.engine.record;

/**
 * One control hook call as recorded in {@code cell_outcome.json}.
 *
 * @param hook reset_kv_cache, profiler_start, profiler_stop
 * @param url the redacted URL posted to
 * @param attempts how many POSTs were made
 * @param result ok or failed
 * @param statusCode the last HTTP status, or null after a transport failure
 * @param error why it failed, or null
 */
public record HookCall(String hook, String origin, String url, int attempts, String result, Integer statusCode,
                       String error, long elapsedMillis) {
    /**
     * The call in a log line's words: {@code reset_kv_cache POST http://host/reset_prefix_cache: ok (200), 1 attempt,
     * 12 ms}, and why when it failed.
     */
    public String describe() {
        return hook + " POST " + url + ": " + result + (statusCode == null ? "" : " (" + statusCode + ")") + ", "
                + attempts + (attempts == 1 ? " attempt, " : " attempts, ") + elapsedMillis + " ms"
                + (error == null ? "" : ": " + error);
    }

    /** As {@link #describe()}: a record's own text would name its fields. */
    @Override
    public String toString() {
        return describe();
    }
}
