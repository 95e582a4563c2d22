package io.aiperf.engine.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The reads of the reading thread on their way to the event loop that parses them: a fixed ring of batches, each a
 * buffer of bytes and, per read, its connection, where its bytes start, how many there are and when they arrived.
 * The reading thread fills the batch at the head and publishes it; the loop takes the oldest and gives it back once
 * parsed. Nothing is allocated per read, and the memory is bounded by the ring: when the loop lags behind by the
 * whole ring, the reading thread waits for a batch (and stops reading, so the sockets fill and the server is held by
 * TCP's flow control). Batches travel in order, so a connection's reads are parsed in the order they were made.
 * One producer thread and one consumer thread.
 */
final class ReadHandOff {
    /** The reads of one wake-up of the reading thread (or part of it, when they fill it). */
    static final class Batch {
        final ByteBuffer bytes;
        /** The loop's view of {@link #bytes} while it parses them (a second buffer over the same array). */
        final ByteBuffer view;
        final Http1Connection[] from;
        final int[] start;
        /** Bytes read, or -1 for the end of the connection. */
        final int[] count;
        final long[] at;
        /** The events of a connection the reading thread does not read itself (its loop handles them), or 0. */
        final int[] ready;
        /** A read that failed, or null. */
        final IOException[] error;
        int size;

        Batch(final int bytes, final int entries) {
            this.bytes = ByteBuffer.allocate(bytes);
            this.view = ByteBuffer.wrap(this.bytes.array());
            this.from = new Http1Connection[entries];
            this.start = new int[entries];
            this.count = new int[entries];
            this.at = new long[entries];
            this.ready = new int[entries];
            this.error = new IOException[entries];
        }

        boolean full(final int minRead) {
            return size == from.length || bytes.remaining() < minRead;
        }

        /** Appends one entry; the read's bytes (if any) are already in {@link #bytes} from {@code from}. */
        void add(final Http1Connection c, final int startAt, final int n, final long nanos, final int ops,
                 final IOException failure) {
            from[size] = c;
            start[size] = startAt;
            count[size] = n;
            at[size] = nanos;
            ready[size] = ops;
            error[size] = failure;
            size++;
        }

        private void clear() {
            java.util.Arrays.fill(from, 0, size, null);
            java.util.Arrays.fill(error, 0, size, null);
            size = 0;
            bytes.clear();
        }
    }

    private final Batch[] ring;
    /** Batches published by the reading thread, and given back by the loop, since the start (each has one writer). */
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong released = new AtomicLong();
    private final AtomicBoolean producerParked = new AtomicBoolean();
    private final AtomicLong stalls = new AtomicLong();
    private final AtomicLong bytesRead = new AtomicLong();
    private final Runnable wakeConsumer;
    private volatile Thread producer;
    private volatile boolean closed;

    /**
     * @param batches batches in the ring
     * @param bytes each batch's buffer
     * @param entries reads each batch holds
     * @param wakeConsumer wakes the loop after a publish (cheap when it is awake)
     */
    ReadHandOff(final int batches, final int bytes, final int entries, final Runnable wakeConsumer) {
        ring = new Batch[batches];
        for (int i = 0; i < batches; i++) {
            ring[i] = new Batch(bytes, entries);
        }
        this.wakeConsumer = wakeConsumer;
    }

    /**
     * Producer: the batch to fill next, waiting while the loop holds every batch; null once closed.
     */
    Batch filling() {
        final long head = published.get();
        if (head - released.get() < ring.length) {
            return ring[(int) (head % ring.length)];
        }
        stalls.incrementAndGet();
        producer = Thread.currentThread();
        while (!closed) {
            producerParked.set(true);
            if (head - released.get() < ring.length) {
                producerParked.set(false);
                return ring[(int) (head % ring.length)];
            }
            LockSupport.parkNanos(this, 10_000_000L);
        }
        producerParked.set(false);
        return null;
    }

    /** Producer: hands the batch from {@link #filling} to the loop (an empty one is kept for the next reads). */
    void publish(final Batch batch) {
        if (batch.size == 0) {
            return;
        }
        published.set(published.get() + 1);
        wakeConsumer.run();
    }

    /** Wakes the loop (after a publish, or when the reading thread ended). */
    void wakeConsumer() {
        wakeConsumer.run();
    }

    /** Consumer: the oldest published batch, or null. */
    Batch next() {
        final long tail = released.get();
        return tail < published.get() ? ring[(int) (tail % ring.length)] : null;
    }

    /** Whether a published batch waits for the loop. */
    boolean pending() {
        return released.get() < published.get();
    }

    /** Consumer: gives back the batch from {@link #next}, emptied, and lets a waiting reading thread on. */
    void release(final Batch batch) {
        batch.clear();
        released.set(released.get() + 1);
        if (producerParked.compareAndSet(true, false)) {
            LockSupport.unpark(producer);
        }
    }

    /** Producer: counts {@code n} bytes read. */
    void counted(final int n) {
        bytesRead.lazySet(bytesRead.get() + n);
    }

    /** Bytes the reading thread has read so far. */
    long bytesRead() {
        return bytesRead.get();
    }

    /** Times the reading thread found every batch held by the loop (the loop lagged behind the reads). */
    long stalls() {
        return stalls.get();
    }

    /** Lets a waiting producer go: {@link #filling} returns null from now on when it would wait. */
    void close() {
        closed = true;
        final Thread p = producer;
        if (p != null) {
            LockSupport.unpark(p);
        }
    }
}
