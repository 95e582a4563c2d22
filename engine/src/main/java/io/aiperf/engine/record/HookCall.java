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
}
