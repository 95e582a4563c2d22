package io.aiperf.engine.client;

/**
 * Requests handed to the lean transport from one thread in a burst: while the thread's batch is open, handing a
 * request to an event loop does not wake the loop; closing the batch wakes each loop that got one, once. An open
 * loop's issuer hands over its due arrivals this way, so a loop wakes once per batch instead of once per request
 * (bench/history/analyses-2026-12.md: at 20,000 requests per second the wake-ups were a large share of the client's
 * CPU). One batch per thread, used by that thread only.
 */
public final class HandOverBatch {
    private static final ThreadLocal<HandOverBatch> OF_THREAD = ThreadLocal.withInitial(HandOverBatch::new);

    private boolean open;
    private Http1Loop[] loops = new Http1Loop[4];
    private int count;

    private HandOverBatch() {
    }

    /** The calling thread's batch. */
    public static HandOverBatch ofThisThread() {
        return OF_THREAD.get();
    }

    /** From now on, requests handed over from this thread wake their loop only at {@link #close}. */
    public void open() {
        open = true;
    }

    /** Wakes every loop a request was handed to since {@link #open}, once each; nothing is deferred after this. */
    public void close() {
        open = false;
        for (int i = 0; i < count; i++) {
            loops[i].wakeIfAsleep();
            loops[i] = null;
        }
        count = 0;
    }

    /** Whether the calling thread's batch is open; if so, {@code loop} is woken when it closes. */
    static boolean defers(final Http1Loop loop) {
        final HandOverBatch batch = OF_THREAD.get();
        if (!batch.open) {
            return false;
        }
        for (int i = 0; i < batch.count; i++) {
            if (batch.loops[i] == loop) {
                return true;
            }
        }
        if (batch.count == batch.loops.length) {
            batch.loops = java.util.Arrays.copyOf(batch.loops, batch.count * 2);
        }
        batch.loops[batch.count++] = loop;
        return true;
    }
}
