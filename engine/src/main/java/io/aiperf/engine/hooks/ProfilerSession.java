package io.aiperf.engine.hooks;

/**
 * Shares one profiler session among overlapping profiling phases (the control-hooks contract in src-docs/control-hooks.md): the first owner starts it,
 * the last owner's release stops it, at most one stop per start. With no profiler configured both calls do
 * nothing. Thread-safe.
 */
public final class ProfilerSession {
    private final ServerProfiler profiler;
    private int owners;
    private boolean active;

    /** @param profiler null when the hook is disabled */
    public ProfilerSession(final ServerProfiler profiler) {
        this.profiler = profiler;
    }

    public boolean enabled() {
        return profiler != null;
    }

    public synchronized void acquire() throws HookException {
        if (profiler == null) {
            return;
        }
        if (owners == 0 && !active) {
            profiler.start();
            active = true;
        }
        owners++;
    }

    /** @return the stop warning, or null */
    public synchronized String release() {
        if (profiler == null || owners == 0) {
            return null;
        }
        owners--;
        if (owners == 0 && active) {
            active = false;
            return profiler.stop();
        }
        return null;
    }
}
