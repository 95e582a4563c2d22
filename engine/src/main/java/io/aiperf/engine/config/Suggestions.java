package io.aiperf.engine.config;

import java.util.Collection;

/** "Did you mean" hints for misspelled keys and names. */
public final class Suggestions {
    private Suggestions() {
    }

    /** The closest candidate within a small edit distance, as " (did you mean 'x'?)", or "". */
    public static String didYouMean(final String given, final Collection<String> candidates) {
        String best = null;
        int bestScore = Integer.MAX_VALUE;
        final String g = given.toLowerCase();
        for (final String c : candidates) {
            // Edit distance, discounted by a shared prefix: typos keep the start of a word.
            final int score = distance(g, c.toLowerCase()) - commonPrefix(g, c.toLowerCase());
            if (score < bestScore) {
                bestScore = score;
                best = c;
            }
        }
        return best != null && bestScore <= Math.max(1, given.length() / 3) ? " (did you mean '" + best + "'?)" : "";
    }

    private static int commonPrefix(final String a, final String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return i;
    }

    /** The Levenshtein distance between two strings. */
    public static int distance(final String a, final String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                final int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            final int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
