package io.aiperf.engine.run;

/** Set once when the user asks the run to stop (Ctrl-C). Thread-safe. */
public final class CancellationToken {
    private volatile boolean cancelled;

    public void cancel() {
        cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }
}
