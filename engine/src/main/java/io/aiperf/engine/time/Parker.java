package io.aiperf.engine.time;

import java.util.concurrent.locks.LockSupport;

/**
 * Parks the calling thread for a while (it may wake early); injectable so the open loop's pacing can run on a
 * virtual clock in tests. Thread-safe.
 */
public interface Parker {
    Parker SYSTEM = LockSupport::parkNanos;

    void parkNanos(long nanos);

    /**
     * A moment of busy waiting in the last microseconds before a deadline {@code remainingNanos} away; called
     * again until it is due (a virtual clock jumps to it instead).
     */
    default void spin(final long remainingNanos) {
        Thread.onSpinWait();
    }
}
