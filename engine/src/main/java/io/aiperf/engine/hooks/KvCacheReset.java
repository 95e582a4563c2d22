package io.aiperf.engine.hooks;

import io.aiperf.engine.record.HookCall;

import io.aiperf.engine.config.ResetKvCacheConfig;
import io.aiperf.engine.time.Clock;
import io.aiperf.engine.time.Sleeper;
import java.util.List;

/**
 * The per-cell KV-cache reset (control-hooks contract): origins in order, each retried within its own
 * budget; the first origin that fails aborts and later origins are not tried.
 */
public final class KvCacheReset {
    private final ControlPoster poster;
    private final Clock clock;
    private final Sleeper sleeper;
    private final HookLog log;

    public KvCacheReset(final ControlTransport transport, final Clock clock, final Sleeper sleeper, final HookLog log) {
        this.poster = new ControlPoster(transport);
        this.clock = clock;
        this.sleeper = sleeper;
        this.log = log;
    }

    public void run(final List<String> origins, final ResetKvCacheConfig config) throws HookException, InterruptedException {
        for (final String origin : origins) {
            resetOne(origin, Origins.join(origin, config.path()), config);
        }
    }

    private void resetOne(final String origin, final String url, final ResetKvCacheConfig config)
            throws HookException, InterruptedException {
        final long start = clock.nanoTime();
        final long deadline = start + (long) (config.maxRetrySeconds() * 1e9);
        long backoff = RetryPolicy.INITIAL_BACKOFF_NANOS;
        int attempts = 0;
        while (true) {
            attempts++;
            try {
                final int status = poster.attempt(url, config.timeoutSeconds());
                log.call(new HookCall("reset_kv_cache", Origins.redact(origin), Origins.redact(url), attempts, "ok",
                        status, null, ControlPoster.elapsedMillis(clock, start)));
                return;
            } catch (HookException e) {
                if (!e.retryable() || clock.nanoTime() + backoff >= deadline) {
                    log.call(new HookCall("reset_kv_cache", Origins.redact(origin), Origins.redact(url), attempts,
                            "failed", e.statusCode(), e.getMessage(), ControlPoster.elapsedMillis(clock, start)));
                    throw e;
                }
                log.retrying(String.format(java.util.Locale.ROOT, "reset_kv_cache %s: %s; trying again in %d s "
                        + "(attempt %d; --reset-kv-cache-max-retry-seconds allows %.0f s in all)", Origins.redact(url),
                        e.getMessage(), backoff / 1_000_000_000L, attempts + 1, config.maxRetrySeconds()));
                sleeper.sleepNanos(backoff);
                backoff = RetryPolicy.nextBackoff(backoff);
            }
        }
    }
}
