package io.aiperf.engine.hooks;

import io.aiperf.engine.record.HookCall;

import io.aiperf.engine.config.ServerProfilerConfig;
import io.aiperf.engine.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Server profiler start and stop over all origins (control-hooks contract, the control-hooks contract in src-docs/control-hooks.md). Start goes origin
 * by origin; on a failure the origins already started are stopped in reverse order (best effort) and the
 * original error is rethrown. Stop tries every origin and folds failures into one warning. Never retries.
 * Not thread-safe: {@link ProfilerSession} serializes calls.
 */
public final class ServerProfiler {
    private final ControlPoster poster;
    private final Clock clock;
    private final HookLog log;
    private final List<String> origins;
    private final ServerProfilerConfig config;

    public ServerProfiler(final ControlTransport transport, final Clock clock, final HookLog log,
                          final List<String> origins, final ServerProfilerConfig config) {
        this.poster = new ControlPoster(transport);
        this.clock = clock;
        this.log = log;
        this.origins = List.copyOf(origins);
        this.config = config;
    }

    public void start() throws HookException {
        final List<String> started = new ArrayList<>();
        for (final String origin : origins) {
            try {
                post("profiler_start", origin, config.startPath());
                started.add(origin);
            } catch (HookException e) {
                for (int i = started.size() - 1; i >= 0; i--) {
                    try {
                        post("profiler_stop", started.get(i), config.stopPath());
                    } catch (HookException cleanup) {
                        log.warn("profiler cleanup stop " + Origins.redact(Origins.join(started.get(i), config.stopPath()))
                                + " failed: " + cleanup.getMessage());
                    }
                }
                throw e;
            }
        }
    }

    /** @return null on success, else one aggregated warning */
    public String stop() {
        final List<String> failures = new ArrayList<>();
        for (final String origin : origins) {
            try {
                post("profiler_stop", origin, config.stopPath());
            } catch (HookException e) {
                failures.add(e.getMessage());
            }
        }
        if (failures.isEmpty()) {
            return null;
        }
        final String warning = "server_profiler stop failed for " + failures.size() + " origin(s): "
                + String.join("; ", failures);
        log.warn(warning);
        return warning;
    }

    private void post(final String hook, final String origin, final String path) throws HookException {
        final String url = Origins.join(origin, path);
        final long start = clock.nanoTime();
        try {
            final int status = poster.attempt(url, config.timeoutSeconds());
            log.call(new HookCall(hook, Origins.redact(origin), Origins.redact(url), 1, "ok", status, null,
                    ControlPoster.elapsedMillis(clock, start)));
        } catch (HookException e) {
            log.call(new HookCall(hook, Origins.redact(origin), Origins.redact(url), 1, "failed", e.statusCode(),
                    e.getMessage(), ControlPoster.elapsedMillis(clock, start)));
            throw e;
        }
    }
}
