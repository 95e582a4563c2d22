package io.aiperf.engine.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The values of one metric over a run, in bounded memory, with exact {@link Stats}. Up to a limit the values stay
 * in memory; beyond it they go to a temporary file, and the statistics come from two passes over it: the first
 * counts values per narrow bucket (the top bits of the value's order-preserving bit pattern, 1/4096 relative
 * width), the second counts the distinct values of only the buckets that hold a wanted rank. So an hour-long run
 * needs as much memory as a short one, and its percentiles are still exact. Not thread-safe.
 */
public final class Distribution implements AutoCloseable {
    static final int DEFAULT_IN_MEMORY = 1 << 13;
    private static final int BUCKET_SHIFT = 40;

    private final int inMemory;
    private double[] buffer = new double[256];
    private int buffered;
    private Path spill;
    private FileChannel spillOut;
    /** The spill's I/O buffer, allocated with the spill: a summary holds some dozens of distributions, most never spill. */
    private ByteBuffer io;
    private long spilled;

    public Distribution() {
        this(DEFAULT_IN_MEMORY);
    }

    /** @param inMemory how many values stay in memory before they go to a temporary file */
    Distribution(final int inMemory) {
        this.inMemory = inMemory;
    }

    /** Adds a value; NaN and infinities are ignored (an absent value is not part of a distribution). */
    public void add(final double value) {
        if (!Double.isFinite(value)) {
            return;
        }
        if (buffered == buffer.length) {
            if (buffer.length < inMemory) {
                buffer = java.util.Arrays.copyOf(buffer, Math.min(inMemory, buffer.length * 2));
            } else if (spill == null && !trySpill()) {
                buffer = java.util.Arrays.copyOf(buffer, buffer.length * 2); // no temporary file: memory it is
            } else {
                flush();
            }
        }
        buffer[buffered++] = value;
    }

    public long count() {
        return spilled + buffered;
    }

    /** Exact statistics of the values added, or null when there are none. */
    public Stats stats() {
        if (spill == null) {
            return Stats.of(buffer, buffered);
        }
        flush();
        try {
            return spilledStats();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the spilled values of a metric: " + e.getMessage(), e);
        }
    }

    /**
     * Opens the temporary file and spills; false when it cannot be created (no file descriptors left, say). The
     * values then stay in memory: a run is never lost for want of a temporary file.
     */
    private boolean trySpill() {
        try {
            flush();
            return true;
        } catch (UncheckedIOException e) {
            if (spill != null) {
                throw e;
            }
            return false;
        }
    }

    private void flush() {
        try {
            if (spill == null) {
                io = ByteBuffer.allocate(1 << 16);
                spill = Files.createTempFile("aiperf-metric", ".bin");
                spill.toFile().deleteOnExit();
                spillOut = FileChannel.open(spill, StandardOpenOption.WRITE, StandardOpenOption.READ);
            }
            io.clear();
            for (int i = 0; i < buffered; i++) {
                if (!io.hasRemaining()) {
                    writeAll();
                }
                io.putDouble(buffer[i]);
            }
            writeAll();
            spilled += buffered;
            buffered = 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spill the values of a metric to a temporary file: "
                    + e.getMessage(), e);
        }
    }

    private void writeAll() throws IOException {
        io.flip();
        while (io.hasRemaining()) {
            spillOut.write(io, spillOut.size());
        }
        io.clear();
    }

    /** Reads every spilled value in order. */
    private void forEach(final java.util.function.DoubleConsumer action) throws IOException {
        long position = 0;
        io.clear();
        while (true) {
            final int read = spillOut.read(io, position);
            if (read <= 0 && io.position() < Double.BYTES) {
                return;
            }
            position += Math.max(read, 0);
            io.flip();
            while (io.remaining() >= Double.BYTES) {
                action.accept(io.getDouble());
            }
            io.compact();
        }
    }

    /** A long that orders like the double it came from, negatives included. */
    private static long orderedBits(final double v) {
        final long bits = Double.doubleToLongBits(v == 0.0 ? 0.0 : v); // -0.0 sorts as 0.0
        return bits ^ ((bits >> 63) & 0x7fffffffffffffffL);
    }

    private static long bucket(final double v) {
        return orderedBits(v) >> BUCKET_SHIFT;
    }

    private Stats spilledStats() throws IOException {
        final long n = spilled;
        final double[] acc = {0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0, 0}; // sum, min, max, mean, sq
        // The ranks the percentiles interpolate between.
        final double[] q = Stats.PERCENTILES;
        final long[] ranks = new long[2 * q.length];
        for (int i = 0; i < q.length; i++) {
            ranks[2 * i] = (long) Math.floor(q[i] / 100.0 * (n - 1));
            ranks[2 * i + 1] = Math.min(ranks[2 * i] + 1, n - 1);
        }
        final double[] at = spilledRanks(ranks, v -> {
            acc[0] += v;
            acc[1] = Math.min(acc[1], v);
            acc[2] = Math.max(acc[2], v);
        }, () -> acc[3] = acc[0] / n, v -> {
            final double d = v - acc[3];
            acc[4] += d * d;
        });
        final double[] p = new double[q.length];
        for (int i = 0; i < q.length; i++) {
            p[i] = at[2 * i] + (at[2 * i + 1] - at[2 * i]) * (q[i] / 100.0 * (n - 1) - ranks[2 * i]);
        }
        return new Stats(acc[3], acc[1], acc[2], p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8],
                Math.sqrt(acc[4] / n), n, acc[0]);
    }

    /**
     * The values at the given 0-based ranks of the sorted values (each below {@link #count()}), exactly, in constant
     * memory when the values were spilled.
     */
    public double[] atRanks(final long[] ranks) {
        if (spill == null) {
            final double[] sorted = java.util.Arrays.copyOf(buffer, buffered);
            java.util.Arrays.sort(sorted);
            final double[] out = new double[ranks.length];
            for (int i = 0; i < ranks.length; i++) {
                out[i] = sorted[(int) ranks[i]];
            }
            return out;
        }
        flush();
        try {
            return spilledRanks(ranks, v -> { }, () -> { }, v -> { });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the spilled values of a metric: " + e.getMessage(), e);
        }
    }

    /**
     * Two passes over the spilled values: the first counts how many fall in each bucket (a fixed-width slice of the
     * ordered bit patterns), the second keeps the distinct values, with their counts, of the buckets that hold a
     * wanted rank only. Each pass also hands every value to the caller's consumer.
     */
    private double[] spilledRanks(final long[] ranks, final java.util.function.DoubleConsumer firstPass,
                                  final Runnable betweenPasses, final java.util.function.DoubleConsumer secondPass)
            throws IOException {
        final LongCounts buckets = new LongCounts();
        forEach(v -> {
            firstPass.accept(v);
            buckets.add(bucket(v), 1);
        });
        betweenPasses.run();
        final LongCounts firstRankOf = new LongCounts();
        final Map<Long, TreeMap<Double, long[]>> wanted = new HashMap<>();
        long before = 0;
        for (final long key : buckets.sortedKeys()) {
            final long after = before + buckets.get(key);
            for (final long r : ranks) {
                if (r >= before && r < after) {
                    firstRankOf.add(key, before + 1); // stored plus one: a missing key reads as 0
                    wanted.put(key, new TreeMap<>());
                    break;
                }
            }
            before = after;
        }
        forEach(v -> {
            secondPass.accept(v);
            final long key = bucket(v);
            if (firstRankOf.get(key) != 0) {
                wanted.get(key).computeIfAbsent(v, k -> new long[1])[0]++;
            }
        });
        final double[] out = new double[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = rank(ranks[i], wanted, firstRankOf);
        }
        return out;
    }

    /** The value of the given 0-based rank in sorted order. */
    private static double rank(final long rank, final Map<Long, TreeMap<Double, long[]>> wanted,
                               final LongCounts firstRankOf) {
        for (final Map.Entry<Long, TreeMap<Double, long[]>> b : wanted.entrySet()) {
            long at = firstRankOf.get(b.getKey()) - 1;
            for (final Map.Entry<Double, long[]> v : b.getValue().entrySet()) {
                at += v.getValue()[0];
                if (rank < at) {
                    if (rank >= firstRankOf.get(b.getKey()) - 1) {
                        return v.getKey();
                    }
                    break;
                }
            }
        }
        throw new IllegalStateException("rank " + rank + " not found"); // cannot happen: every wanted rank was bucketed
    }

    /** Counts by long key without boxing: open addressing, for the buckets of up to billions of values. */
    static final class LongCounts {
        private long[] keys = new long[1024];
        private long[] counts = new long[1024];
        private boolean[] used = new boolean[1024];
        private int size;

        void add(final long key, final long delta) {
            if (size * 2 >= keys.length) {
                grow();
            }
            int i = slot(key, keys.length);
            while (used[i] && keys[i] != key) {
                i = (i + 1) & (keys.length - 1);
            }
            if (!used[i]) {
                used[i] = true;
                keys[i] = key;
                size++;
            }
            counts[i] += delta;
        }

        long get(final long key) {
            int i = slot(key, keys.length);
            while (used[i]) {
                if (keys[i] == key) {
                    return counts[i];
                }
                i = (i + 1) & (keys.length - 1);
            }
            return 0;
        }

        long[] sortedKeys() {
            final long[] out = new long[size];
            int j = 0;
            for (int i = 0; i < keys.length; i++) {
                if (used[i]) {
                    out[j++] = keys[i];
                }
            }
            java.util.Arrays.sort(out);
            return out;
        }

        private static int slot(final long key, final int capacity) {
            final long h = key * 0x9E3779B97F4A7C15L;
            return (int) (h >>> 40) & (capacity - 1);
        }

        private void grow() {
            final long[] oldKeys = keys;
            final long[] oldCounts = counts;
            final boolean[] oldUsed = used;
            keys = new long[oldKeys.length * 2];
            counts = new long[oldKeys.length * 2];
            used = new boolean[oldKeys.length * 2];
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldUsed[i]) {
                    add(oldKeys[i], oldCounts[i]);
                }
            }
        }
    }

    @Override
    public void close() {
        if (spill != null) {
            try {
                spillOut.close();
                Files.deleteIfExists(spill);
            } catch (IOException e) {
                // a temporary file left behind is removed at exit
            }
        }
    }

}
