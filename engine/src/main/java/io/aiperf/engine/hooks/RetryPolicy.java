package io.aiperf.engine.hooks;

import java.util.Set;

/**
 * The reset retry rule (the control-hooks contract in src-docs/control-hooks.md): transport failures and 409, 423, 429, 503 are retried; backoff
 * starts at 1 s, doubles, and is capped at 8 s; no retry is started that would end past the budget.
 */
public final class RetryPolicy {
    static final Set<Integer> RETRYABLE_STATUSES = Set.of(409, 423, 429, 503);
    static final long INITIAL_BACKOFF_NANOS = 1_000_000_000L;
    static final long MAX_BACKOFF_NANOS = 8_000_000_000L;

    private RetryPolicy() {
    }

    static boolean isRetryableStatus(final int status) {
        return RETRYABLE_STATUSES.contains(status);
    }

    static long nextBackoff(final long backoffNanos) {
        return Math.min(backoffNanos * 2, MAX_BACKOFF_NANOS);
    }
}
