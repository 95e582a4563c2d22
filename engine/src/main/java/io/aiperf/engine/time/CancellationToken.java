package io.aiperf.engine.time;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Set once when the user asks the run to stop (Ctrl-C, SIGTERM). Waits end at once when it is set, and
 * registered actions (such as aborting an in-flight control call) run. Thread-safe.
 */
public final class CancellationToken {
    private final List<Runnable> onCancel = new CopyOnWriteArrayList<>();
    private volatile boolean cancelled;
    private volatile boolean terminated;

    /** Cancels because SIGTERM asked (a CI system stopping a job): the run then exits 143, not 130. */
    public void terminate() {
        terminated = true;
        cancel();
    }

    /** Whether the cancel came from {@link #terminate()}. */
    public boolean terminated() {
        return terminated;
    }

    public void cancel() {
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            notifyAll();
        }
        onCancel.forEach(Runnable::run);
    }

    public boolean isCancelled() {
        return cancelled;
    }

    /** Ends a registration made with {@link #onCancel(Runnable)}. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Runs the action when the token is cancelled (at once if it already is) until the returned handle is
     * closed.
     */
    public Registration onCancel(final Runnable action) {
        onCancel.add(action);
        if (cancelled) {
            action.run();
        }
        return () -> onCancel.remove(action);
    }

    /** A sleeper that wakes as soon as the token is cancelled, and then throws {@link InterruptedException}. */
    public Sleeper sleeper() {
        return nanos -> {
            final long end = System.nanoTime() + nanos;
            synchronized (this) {
                while (!cancelled) {
                    final long left = end - System.nanoTime();
                    if (left <= 0) {
                        return;
                    }
                    wait(left / 1_000_000L, (int) (left % 1_000_000L));
                }
            }
            throw new InterruptedException("cancelled");
        };
    }
}
