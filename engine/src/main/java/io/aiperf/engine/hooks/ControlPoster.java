package io.aiperf.engine.hooks;

import io.aiperf.engine.time.Clock;
import java.io.IOException;

/** One control POST attempt turned into success or a {@link HookException} (the control-hooks contract in src-docs/control-hooks.md). */
final class ControlPoster {
    /** What to do when the server has no such route (llama.cpp's server, TensorRT-LLM, vLLM without its dev mode). */
    static final String NO_SUCH_ROUTE = ": this server has no such route; the per-server table in the control hooks "
            + "docs (control-hooks.md, 'Per-server paths') gives its path, or leave the hook off";
    private final ControlTransport transport;

    ControlPoster(final ControlTransport transport) {
        this.transport = transport;
    }

    /** @return the 2xx status; throws with {@code retryable} set per the reset retry classes */
    int attempt(final String url, final double timeoutSeconds) throws HookException {
        final int status;
        try {
            status = transport.post(url, timeoutSeconds);
        } catch (IOException e) {
            throw new HookException("control hook POST " + Origins.redact(url) + " failed: "
                    + e.getClass().getSimpleName() + ": " + Origins.redact(String.valueOf(e.getMessage())), null, true);
        }
        if (status < 200 || status >= 300) {
            throw new HookException("control hook POST " + Origins.redact(url) + " failed with status " + status
                    + (status == 404 || status == 405 ? NO_SUCH_ROUTE : ""), status, RetryPolicy.isRetryableStatus(status));
        }
        return status;
    }

    static long elapsedMillis(final Clock clock, final long startNanos) {
        return (clock.nanoTime() - startNanos) / 1_000_000L;
    }
}
