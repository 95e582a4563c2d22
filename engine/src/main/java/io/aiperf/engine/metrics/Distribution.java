package io.aiperf.engine.metrics;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
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
    static final int DEFAULT_IN_MEMORY = 1 << 16;
    private static final int BUCKET_SHIFT = 40;

    private final double[] buffer;
    private int buffered;
    private Path spill;
    private DataOutputStream spillOut;
    private long spilled;

    public Distribution() {
        this(DEFAULT_IN_MEMORY);
    }

    Distribution(final int inMemory) {
        this.buffer = new double[inMemory];
    }

    /** Adds a value; NaN and infinities are ignored (an absent value is not part of a distribution). */
    public void add(final double value) {
        if (!Double.isFinite(value)) {
            return;
        }
        if (buffered == buffer.length) {
            flush();
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
            spillOut.flush();
            return spilledStats();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the spilled values of a metric: " + e.getMessage(), e);
        }
    }

    private void flush() {
        try {
            if (spill == null) {
                spill = Files.createTempFile("aiperf-metric", ".bin");
                spill.toFile().deleteOnExit();
                spillOut = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(spill), 1 << 16));
            }
            for (int i = 0; i < buffered; i++) {
                spillOut.writeDouble(buffer[i]);
            }
            spilled += buffered;
            buffered = 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spill the values of a metric to a temporary file: "
                    + e.getMessage(), e);
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
        // Pass 1: count, sum, extremes, and how many values fall in each bucket.
        final TreeMap<Long, long[]> buckets = new TreeMap<>();
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        try (DataInputStream in = open()) {
            for (long i = 0; i < n; i++) {
                final double v = in.readDouble();
                sum += v;
                min = Math.min(min, v);
                max = Math.max(max, v);
                buckets.computeIfAbsent(bucket(v), k -> new long[1])[0]++;
            }
        }
        final double mean = sum / n;
        // The ranks that the percentiles interpolate between, and the bucket that holds each.
        final double[] q = Stats.PERCENTILES;
        final long[] lo = new long[q.length];
        final long[] hi = new long[q.length];
        final Map<Long, Long> firstRankOf = new HashMap<>();
        for (int i = 0; i < q.length; i++) {
            final double idx = q[i] / 100.0 * (n - 1);
            lo[i] = (long) Math.floor(idx);
            hi[i] = Math.min(lo[i] + 1, n - 1);
        }
        long before = 0;
        for (final Map.Entry<Long, long[]> b : buckets.entrySet()) {
            final long after = before + b.getValue()[0];
            for (int i = 0; i < q.length; i++) {
                if ((lo[i] >= before && lo[i] < after) || (hi[i] >= before && hi[i] < after)) {
                    firstRankOf.put(b.getKey(), before);
                }
            }
            before = after;
        }
        // Pass 2: the spread around the mean, and the distinct values of the wanted buckets with their counts.
        final Map<Long, TreeMap<Double, long[]>> wanted = new HashMap<>();
        firstRankOf.keySet().forEach(k -> wanted.put(k, new TreeMap<>()));
        double sq = 0;
        try (DataInputStream in = open()) {
            for (long i = 0; i < n; i++) {
                final double v = in.readDouble();
                final double d = v - mean;
                sq += d * d;
                final TreeMap<Double, long[]> values = wanted.get(bucket(v));
                if (values != null) {
                    values.computeIfAbsent(v, k -> new long[1])[0]++;
                }
            }
        }
        final double[] p = new double[q.length];
        for (int i = 0; i < q.length; i++) {
            final double vlo = rank(lo[i], wanted, firstRankOf);
            final double vhi = rank(hi[i], wanted, firstRankOf);
            final double idx = q[i] / 100.0 * (n - 1);
            p[i] = vlo + (vhi - vlo) * (idx - lo[i]);
        }
        return new Stats(mean, min, max, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], Math.sqrt(sq / n), n,
                sum);
    }

    /** The value of the given 0-based rank in sorted order. */
    private static double rank(final long rank, final Map<Long, TreeMap<Double, long[]>> wanted,
                               final Map<Long, Long> firstRankOf) {
        for (final Map.Entry<Long, TreeMap<Double, long[]>> b : wanted.entrySet()) {
            long at = firstRankOf.get(b.getKey());
            long total = 0;
            for (final long[] c : b.getValue().values()) {
                total += c[0];
            }
            if (rank < at || rank >= at + total) {
                continue;
            }
            for (final Map.Entry<Double, long[]> v : b.getValue().entrySet()) {
                at += v.getValue()[0];
                if (rank < at) {
                    return v.getKey();
                }
            }
        }
        throw new IllegalStateException("rank " + rank + " not found"); // cannot happen: every wanted rank was bucketed
    }

    private DataInputStream open() throws IOException {
        return new DataInputStream(new BufferedInputStream(Files.newInputStream(spill), 1 << 16));
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
