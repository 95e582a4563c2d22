package io.aiperf.engine.dataset;

import io.aiperf.engine.config.DatasetConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Synthetic prompts with an exact input length (AIPerf's endpoint and streaming docs): ISL drawn from Normal(mean, stddev) per
 * entry, text cut from the shipped corpus at a seeded offset, then repaired by re-encoding until the count
 * is exact. Deterministic for a given seed.
 */
public final class SyntheticDataset {
    /** A word that is one o200k token after a space, so each top-up adds exactly one token. */
    private static final String FILLER = " the";
    private static final String[] CORPUS_WORDS = loadCorpus();

    private SyntheticDataset() {
    }

    public static List<DatasetEntry> generate(final DatasetConfig config, final Long seed, final Tokenizer tokenizer) {
        final Random random = seed == null ? new Random() : new Random(seed);
        final List<DatasetEntry> entries = new ArrayList<>(config.entries());
        for (int i = 0; i < config.entries(); i++) {
            final int isl = Math.max(1, (int) Math.round(config.islMean() + random.nextGaussian() * config.islStddev()));
            Integer osl = null;
            if (config.oslMean() != null) {
                osl = Math.max(1, (int) Math.round(config.oslMean() + random.nextGaussian() * config.oslStddev()));
            }
            final String prompt = prompt(isl, random.nextInt(CORPUS_WORDS.length), tokenizer);
            entries.add(new DatasetEntry(new UUID(random.nextLong(), random.nextLong()).toString(), prompt, isl, osl,
                    null));
        }
        return entries;
    }

    /** Text of exactly {@code tokens} tokens, starting at corpus word {@code offset}. */
    static String prompt(final int tokens, final int offset, final Tokenizer tokenizer) {
        final StringBuilder sb = new StringBuilder(tokens * 6);
        // Estimate word by word (o200k splits before spaces, so counts mostly add up), then verify once and
        // repair: drop words while over, add one-token fillers while under.
        int estimate = 0;
        int words = 0;
        while (estimate < tokens) {
            final String w = CORPUS_WORDS[(offset + words) % CORPUS_WORDS.length];
            final String piece = sb.length() == 0 ? w : " " + w;
            final int add = tokenizer.count(piece);
            if (estimate + add > tokens) {
                break;
            }
            sb.append(piece);
            estimate += add;
            words++;
        }
        int count = tokenizer.count(sb.toString());
        while (count > tokens && sb.length() > 0) {
            sb.setLength(Math.max(sb.lastIndexOf(" "), 0));
            count = tokenizer.count(sb.toString());
        }
        while (count < tokens) {
            sb.append(sb.length() == 0 ? "the" : FILLER);
            count = tokenizer.count(sb.toString());
        }
        return sb.toString();
    }

    private static String[] loadCorpus() {
        try (InputStream in = SyntheticDataset.class.getResourceAsStream("corpus.txt")) {
            if (in == null) {
                throw new IllegalStateException("corpus.txt is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim().split("\\s+");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Words of the shipped corpus, for the mock server's replies. */
    public static String[] corpusWords() {
        return CORPUS_WORDS.clone();
    }
}
