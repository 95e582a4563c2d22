package io.aiperf.engine.mock;

import io.aiperf.engine.dataset.SyntheticDataset;
import io.aiperf.engine.dataset.Tokenizer;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The words the mock replies with: corpus words that are exactly one o200k token after a space, so a reply
 * of N chunks re-encodes to exactly N tokens on the client, whatever the chunk boundaries.
 */
final class ReplyWords {
    private static final String[] WORDS = build();

    private ReplyWords() {
    }

    private static String[] build() {
        final Set<String> out = new LinkedHashSet<>();
        final Tokenizer tok = Tokenizer.builtin();
        for (final String raw : SyntheticDataset.corpusWords()) {
            final String w = raw.replaceAll("[^A-Za-z]", "").toLowerCase(Locale.ROOT);
            if (!w.isEmpty() && tok.count(" " + w) == 1) {
                out.add(" " + w);
            }
        }
        return out.toArray(new String[0]);
    }

    /** The {@code i}-th reply token of a reply seeded by {@code seed}. */
    static String token(final int seed, final int i) {
        return WORDS[Math.floorMod(seed + i * 7, WORDS.length)];
    }
}
