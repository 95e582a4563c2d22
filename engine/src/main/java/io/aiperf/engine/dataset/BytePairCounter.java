package io.aiperf.engine.dataset;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts the tokens of a tiktoken byte-pair encoding, as tiktoken's {@code encode_ordinary} would, without building
 * the token list: the text is split by the encoding's pattern, and each piece is merged pair by pair, lowest rank
 * first, until no adjacent pair is a token.
 *
 * <p>Why not only JTokkit (whose jar ships the rank file read here): JTokkit turns the 200,000 ranks into three hash
 * maps of boxed keys, about half a second of every run's start-up. Here they are read straight into primitive arrays
 * (one byte blob, its offsets and an open-addressing table), about a tenth of that, and a count allocates nothing
 * but the pattern's matcher. The counts are JTokkit's (a unit test compares them over varied text).
 *
 * <p>Thread-safe: the tables are read-only after loading; scratch space is per thread.
 */
final class BytePairCounter {
    private static final int NO_RANK = Integer.MAX_VALUE;

    private final Pattern pattern;
    private final byte[] blob;      // every token's bytes, in rank order
    private final int[] offsets;    // token r is blob[offsets[r], offsets[r + 1])
    private final int[] table;      // open addressing: rank + 1, or 0 for an empty slot
    private final int mask;
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    private BytePairCounter(final Pattern pattern, final byte[] blob, final int[] offsets, final int tokens) {
        this.pattern = pattern;
        this.blob = blob;
        this.offsets = offsets;
        final int capacity = Integer.highestOneBit(Math.max(16, tokens) * 2) << 1; // load factor at most 1/2
        this.table = new int[capacity];
        this.mask = capacity - 1;
        for (int r = 0; r < tokens; r++) {
            int slot = hash(blob, offsets[r], offsets[r + 1]) & mask;
            while (table[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            table[slot] = r + 1;
        }
    }

    /**
     * Reads a tiktoken rank file ({@code base64-token rank} per line, ranks 0, 1, 2, ... in order) from the class
     * path.
     */
    static BytePairCounter load(final String resource, final Pattern pattern) {
        final byte[] file;
        try (InputStream in = BytePairCounter.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("tokenizer ranks not found on the class path: " + resource);
            }
            file = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("tokenizer ranks not readable: " + resource, e);
        }
        int lines = 0;
        for (final byte b : file) {
            if (b == '\n') {
                lines++;
            }
        }
        final byte[] blob = new byte[file.length]; // decoded base64 is shorter than the file
        final int[] offsets = new int[lines + 2];
        int tokens = 0;
        int at = 0;
        int written = 0;
        while (at < file.length) {
            final int space = indexOf(file, at, (byte) ' ');
            final int end = indexOf(file, space + 1, (byte) '\n');
            if (space < 0 || space >= end) {
                throw new IllegalStateException(resource + ": line " + (tokens + 1) + " is not 'token rank'");
            }
            if (parseRank(file, space + 1, end) != tokens) {
                throw new IllegalStateException(resource + ": line " + (tokens + 1) + " is out of rank order");
            }
            offsets[tokens] = written;
            written = decodeBase64(file, at, space, blob, written);
            tokens++;
            at = end + 1;
        }
        offsets[tokens] = written;
        return new BytePairCounter(pattern, blob, offsets, tokens);
    }

    /** Tokens in the text, special tokens read as ordinary text. */
    int count(final CharSequence text) {
        final Scratch s = scratch.get();
        final Matcher m = pattern.matcher(text);
        int count = 0;
        while (m.find()) {
            final int length = s.utf8(text, m.start(), m.end());
            count += piece(s, length);
        }
        return count;
    }

    /** The tokens of one piece of the split, held in the scratch's bytes. */
    private int piece(final Scratch s, final int length) {
        final byte[] bytes = s.bytes;
        if (length == 0) {
            return 0;
        }
        if (length == 1 || rank(bytes, 0, length) != NO_RANK) {
            return 1;
        }
        // Parts start at next[] positions; each part's rank is that of it merged with its right neighbour.
        s.ensureParts(length);
        final int[] prev = s.prev;
        final int[] next = s.next;
        final int[] partRank = s.rank;
        final MinHeap heap = s.heap;
        heap.clear();
        for (int i = 0; i < length; i++) {
            prev[i] = i - 1;
            next[i] = i + 1;
            final int r = i + 2 <= length ? rank(bytes, i, i + 2) : NO_RANK;
            partRank[i] = r;
            if (r != NO_RANK) {
                heap.push(r, i);
            }
        }
        int parts = length;
        while (!heap.isEmpty()) {
            final long top = heap.pop();
            final int r = (int) (top >>> 32);
            final int i = (int) top;
            if (partRank[i] != r) {
                continue; // stale: the part changed since this entry was pushed
            }
            // Merge part i with its right neighbour, then re-rank i and its left neighbour.
            final int gone = next[i];
            next[i] = next[gone];
            if (next[i] < length) {
                prev[next[i]] = i;
            }
            partRank[gone] = -1;
            parts--;
            partRank[i] = mergedRank(bytes, i, next, length);
            if (partRank[i] != NO_RANK) {
                heap.push(partRank[i], i);
            }
            final int left = prev[i];
            if (left >= 0) {
                partRank[left] = mergedRank(bytes, left, next, length);
                if (partRank[left] != NO_RANK) {
                    heap.push(partRank[left], left);
                }
            }
        }
        return parts;
    }

    /** The rank of part {@code i} joined with the part after it, or none when it has no right neighbour. */
    private int mergedRank(final byte[] bytes, final int i, final int[] next, final int length) {
        final int after = next[i];
        return after >= length ? NO_RANK : rank(bytes, i, next[after] > length ? length : next[after]);
    }

    private int rank(final byte[] bytes, final int from, final int to) {
        int slot = hash(bytes, from, to) & mask;
        while (true) {
            final int entry = table[slot];
            if (entry == 0) {
                return NO_RANK;
            }
            final int r = entry - 1;
            final int start = offsets[r];
            if (offsets[r + 1] - start == to - from
                    && java.util.Arrays.equals(blob, start, start + (to - from), bytes, from, to)) {
                return r;
            }
            slot = (slot + 1) & mask;
        }
    }

    private static int hash(final byte[] bytes, final int from, final int to) {
        int h = to - from;
        for (int i = from; i < to; i++) {
            h = 31 * h + bytes[i];
        }
        return h ^ (h >>> 16) ^ (h >>> 7);
    }

    private static int indexOf(final byte[] bytes, final int from, final byte b) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return b == '\n' ? bytes.length : -1;
    }

    private static int parseRank(final byte[] bytes, final int from, final int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            final int d = bytes[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            value = value * 10 + d;
        }
        return from == to ? -1 : value;
    }

    /** Decodes standard base64 (with padding) from src[from, to) into dst at {@code at}; returns the new end. */
    private static int decodeBase64(final byte[] src, final int from, final int to, final byte[] dst, int at) {
        int bits = 0;
        int buffered = 0;
        for (int i = from; i < to; i++) {
            final int c = src[i];
            if (c == '=') {
                break;
            }
            final int v = c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26
                    : c >= '0' && c <= '9' ? c - '0' + 52 : c == '+' ? 62 : c == '/' ? 63 : -1;
            if (v < 0) {
                throw new IllegalStateException("tokenizer ranks: not base64 at byte " + i);
            }
            bits = (bits << 6) | v;
            buffered += 6;
            if (buffered >= 8) {
                buffered -= 8;
                dst[at++] = (byte) (bits >>> buffered);
            }
        }
        return at;
    }

    /** A thread's reusable buffers: the piece's UTF-8 bytes and the merge state. */
    private static final class Scratch {
        byte[] bytes = new byte[256];
        int[] prev = new int[256];
        int[] next = new int[256];
        int[] rank = new int[256];
        final MinHeap heap = new MinHeap();

        /** Encodes text[from, to) as UTF-8 (a lone surrogate as '?', as String.getBytes does); returns the length. */
        int utf8(final CharSequence text, final int from, final int to) {
            if (bytes.length < (to - from) * 3) {
                bytes = new byte[(to - from) * 3];
            }
            final byte[] b = bytes;
            int n = 0;
            for (int i = from; i < to; i++) {
                final char c = text.charAt(i);
                if (c < 0x80) {
                    b[n++] = (byte) c;
                } else if (c < 0x800) {
                    b[n++] = (byte) (0xC0 | (c >> 6));
                    b[n++] = (byte) (0x80 | (c & 0x3F));
                } else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(text.charAt(i + 1))) {
                    final int cp = Character.toCodePoint(c, text.charAt(++i));
                    b[n++] = (byte) (0xF0 | (cp >> 18));
                    b[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    b[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    b[n++] = (byte) (0x80 | (cp & 0x3F));
                } else if (Character.isSurrogate(c)) {
                    b[n++] = '?';
                } else {
                    b[n++] = (byte) (0xE0 | (c >> 12));
                    b[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    b[n++] = (byte) (0x80 | (c & 0x3F));
                }
            }
            return n;
        }

        void ensureParts(final int length) {
            if (prev.length < length) {
                prev = new int[length];
                next = new int[length];
                rank = new int[length];
            }
        }
    }

    /** A min-heap of (rank, position) pairs packed into longs, so ties go to the leftmost position. */
    private static final class MinHeap {
        private long[] items = new long[256];
        private int size;

        void clear() {
            size = 0;
        }

        boolean isEmpty() {
            return size == 0;
        }

        void push(final int rank, final int position) {
            if (size == items.length) {
                items = java.util.Arrays.copyOf(items, size * 2);
            }
            final long item = ((long) rank << 32) | position;
            int i = size++;
            while (i > 0) {
                final int parent = (i - 1) >>> 1;
                if (items[parent] <= item) {
                    break;
                }
                items[i] = items[parent];
                i = parent;
            }
            items[i] = item;
        }

        long pop() {
            final long top = items[0];
            final long last = items[--size];
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && items[child + 1] < items[child]) {
                    child++;
                }
                if (items[child] >= last) {
                    break;
                }
                items[i] = items[child];
                i = child;
            }
            if (size > 0) {
                items[i] = last;
            }
            return top;
        }
    }
}
