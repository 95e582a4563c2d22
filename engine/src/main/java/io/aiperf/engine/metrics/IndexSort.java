package io.aiperf.engine.metrics;

/** The order of an array of keys as indices, stable (equal keys keep their order), without boxing. */
final class IndexSort {
    private IndexSort() {
    }

    /** The indices of {@code keys} in ascending key order; equal keys in index order. */
    static int[] byKey(final long[] keys) {
        int[] from = new int[keys.length];
        for (int i = 0; i < from.length; i++) {
            from[i] = i;
        }
        int[] to = new int[keys.length];
        for (int width = 1; width < keys.length; width *= 2) {
            for (int lo = 0; lo < keys.length; lo += 2 * width) {
                final int mid = Math.min(lo + width, keys.length);
                final int hi = Math.min(lo + 2 * width, keys.length);
                int i = lo;
                int j = mid;
                for (int k = lo; k < hi; k++) {
                    to[k] = j >= hi || i < mid && keys[from[i]] <= keys[from[j]] ? from[i++] : from[j++];
                }
            }
            final int[] swap = from;
            from = to;
            to = swap;
        }
        return from;
    }
}
