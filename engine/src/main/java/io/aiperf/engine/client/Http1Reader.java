package io.aiperf.engine.client;

import io.aiperf.engine.time.Clock;
import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Iterator;

/**
 * The reading thread of an event loop ({@link Http1Loop}) once it hands its reads over: it owns the loop's selector
 * and does nothing but read the plain connections that are ready and stamp each read the moment it returns, then
 * hands the bytes and their stamps to the loop ({@link ReadHandOff}), which frames, parses and completes them.
 * Everything else a connection is ready for (a connect, a write, a TLS record to decrypt) is handed to the loop as
 * is, with the connection's events off until the loop has dealt with it. No parsing, completion or write ever runs
 * here, so a stamp waits for nothing but the reads before it in the same wake-up.
 */
final class Http1Reader implements Runnable {
    /** The least room a read is given in a batch; a batch with less is handed over and the next one taken. */
    static final int MIN_READ = 8 * 1024;

    private final Selector selector;
    private final Clock clock;
    private final ReadHandOff handOff;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    Http1Reader(final String name, final Selector selector, final Clock clock, final ReadHandOff handOff) {
        this.selector = selector;
        this.clock = clock;
        this.handOff = handOff;
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Why the reading thread ended, when it ended on its own; null while it runs. */
    Throwable failure() {
        return failure;
    }

    @Override
    public void run() {
        ReadHandOff.Batch batch = null;
        try {
            while (running) {
                selector.select(1000); // the loop wakes it when it changes what a connection waits for
                final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext() && running) {
                    final SelectionKey key = keys.next();
                    keys.remove();
                    if (batch == null || batch.full(MIN_READ)) {
                        if (batch != null) {
                            handOff.publish(batch);
                        }
                        batch = handOff.filling();
                        if (batch == null) {
                            return; // closed while waiting for the loop
                        }
                    }
                    take(key, batch);
                }
                if (batch != null && batch.size > 0) {
                    handOff.publish(batch);
                    batch = null;
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            failure = e;
            if (batch != null) {
                handOff.publish(batch);
            }
            handOff.wakeConsumer(); // the loop sees the failure and fails its requests
        }
    }

    /** Reads one ready connection into {@code batch}, or hands its readiness to the loop. */
    private void take(final SelectionKey key, final ReadHandOff.Batch batch) {
        final Http1Connection c = (Http1Connection) key.attachment();
        final int ready;
        try {
            if (!key.isValid()) {
                return; // closed by the loop since the selection
            }
            ready = key.readyOps();
            if (ready != SelectionKey.OP_READ || !c.direct) {
                key.interestOps(0); // until the loop has handled it, or it would be selected again at once
                batch.add(c, 0, 0, 0, ready, null);
                return;
            }
        } catch (CancelledKeyException closed) {
            return;
        }
        final int start = batch.bytes.position();
        try {
            final int n = c.channel.read(batch.bytes);
            final long now = clock.nanoTime(); // when the bytes arrived, before any parsing
            if (n < 0) {
                key.interestOps(0); // an ended connection is always readable: the loop closes it
            }
            if (n != 0) {
                batch.add(c, start, n, now, 0, null);
            }
            if (n > 0) {
                handOff.counted(n);
            }
        } catch (IOException e) {
            batch.bytes.position(start);
            try {
                key.interestOps(0);
            } catch (CancelledKeyException closed) {
                return;
            }
            batch.add(c, start, 0, clock.nanoTime(), 0, e);
        } catch (CancelledKeyException closed) {
            // closed by the loop meanwhile: whatever was read is nobody's
        }
    }

    /** Stops reading and waits for the thread to end (it does not close the selector: the loop does). */
    void stop() {
        running = false;
        handOff.close();
        selector.wakeup();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
