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
 * Synthetic conversations with exact input lengths (AIPerf's synthetic dataset docs): ISL drawn from Normal(mean,
 * stddev) per turn (or an (ISL, OSL) pair from {@code --seq-dist}), text cut from the shipped corpus at a seeded
 * offset, then repaired by re-encoding until the count is exact. Optional: several turns with think times, a pool
 * of prefix prompts put before first turns, and one shared system prompt. Deterministic for a given seed.
 */
public final class SyntheticDataset {
    /** A word that is one o200k token after a space, so each top-up adds exactly one token. */
    private static final String FILLER = " the";
    static final String[] CORPUS_WORDS = loadCorpus();

    private SyntheticDataset() {
    }

    public static List<Conversation> generate(final DatasetConfig config, final Long seed, final Tokenizer tokenizer) {
        return generate(config, seed, tokenizer, 0, 0);
    }

    /**
     * As {@link #generate(DatasetConfig, Long, Tokenizer)}, each drawn ISL shortened (to at least 1) by what the chat
     * template adds to the turn, so the rendered request is about the ISL asked for (as upstream AIPerf does).
     *
     * @param firstTurnOverhead the template's tokens around a first turn: the request's fixed cost and its wrap
     * @param laterTurnOverhead the template's tokens around a later turn: its message's wrap
     */
    static List<Conversation> generate(final DatasetConfig config, final Long seed, final Tokenizer tokenizer,
                                       final int firstTurnOverhead, final int laterTurnOverhead) {
        final Random random = seed == null ? new Random() : new Random(seed);
        final DatasetConfig.Prefixes prefixes = config.prefixes();
        final String system = prefixes.sharedSystemLength() > 0
                ? prompt(prefixes.sharedSystemLength(), random.nextInt(CORPUS_WORDS.length), tokenizer) : null;
        final List<String> pool = new ArrayList<>(prefixes.poolSize());
        for (int i = 0; i < prefixes.poolSize(); i++) {
            pool.add(prompt(prefixes.length(), random.nextInt(CORPUS_WORDS.length), tokenizer));
        }
        final DatasetConfig.Turns shape = config.turns();
        final List<Conversation> conversations = new ArrayList<>(config.entries());
        for (int i = 0; i < config.entries(); i++) {
            final int count = shape.multiTurn()
                    ? Math.max(1, (int) Math.round(shape.mean() + random.nextGaussian() * shape.stddev())) : 1;
            final List<Conversation.Turn> turns = new ArrayList<>(count);
            for (int t = 0; t < count; t++) {
                final int isl;
                Integer osl = null;
                if (config.sequences() != null) {
                    final int[] pair = config.sequences().draw(random);
                    isl = pair[0];
                    osl = pair[1];
                } else {
                    isl = Math.max(1, (int) Math.round(config.islMean() + random.nextGaussian() * config.islStddev()));
                    if (config.oslMean() != null) {
                        osl = Math.max(1, (int) Math.round(config.oslMean()
                                + random.nextGaussian() * config.oslStddev()));
                    }
                }
                final int bare = Math.max(1, isl - (t == 0 ? firstTurnOverhead : laterTurnOverhead));
                String prompt = prompt(bare, random.nextInt(CORPUS_WORDS.length), tokenizer);
                int tokens = bare;
                if (t == 0 && !pool.isEmpty()) {
                    // The pool prompt goes first, so conversations that drew the same one share a prefix.
                    prompt = pool.get(random.nextInt(pool.size())) + " " + prompt;
                    tokens = tokenizer.count(prompt);
                }
                if (t == 0 && prefixes.userContextLength() > 0) {
                    // A context of its own for each conversation: shared by its turns, by no other conversation.
                    prompt = prompt(prefixes.userContextLength(), random.nextInt(CORPUS_WORDS.length), tokenizer)
                            + " " + prompt;
                    tokens = tokenizer.count(prompt);
                }
                long delay = t == 0 ? 0 : Math.max(0, Math.round((shape.delayMeanMs()
                        + random.nextGaussian() * shape.delayStddevMs()) * shape.delayRatio()));
                if (config.turnDelayCapMs() != null) {
                    delay = Math.min(delay, config.turnDelayCapMs());
                }
                turns.add(new Conversation.Turn(prompt, tokens, osl, delay));
            }
            conversations.add(new Conversation(new UUID(random.nextLong(), random.nextLong()).toString(), system,
                    tokenizer.count(system), turns, null));
        }
        return conversations;
    }

    /**
     * Synthetic rankings requests: per entry a query and Normal(mean, stddev) passages (at least one), each of its
     * drawn token length; the input tokens are the query's and the passages' together.
     */
    public static List<Conversation> rankings(final DatasetConfig config, final Long seed, final Tokenizer tokenizer) {
        final Random random = seed == null ? new Random() : new Random(seed);
        final DatasetConfig.Rankings r = config.rankings();
        final List<Conversation> out = new ArrayList<>(config.entries());
        for (int i = 0; i < config.entries(); i++) {
            final String query = prompt(draw(random, r.queryTokensMean(), r.queryTokensStddev()),
                    random.nextInt(CORPUS_WORDS.length), tokenizer);
            int tokens = tokenizer.count(query);
            final int n = draw(random, r.passagesMean(), r.passagesStddev());
            final List<String> passages = new ArrayList<>(n);
            for (int p = 0; p < n; p++) {
                final int length = draw(random, r.passageTokensMean(), r.passageTokensStddev());
                passages.add(prompt(length, random.nextInt(CORPUS_WORDS.length), tokenizer));
                tokens += length;
            }
            out.add(new Conversation(new UUID(random.nextLong(), random.nextLong()).toString(), null, 0,
                    List.of(new Conversation.Turn(query, tokens, null, 0, passages)), null));
        }
        return out;
    }

    private static int draw(final Random random, final double mean, final double stddev) {
        return Math.max(1, (int) Math.round(mean + random.nextGaussian() * stddev));
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
        // Each filler adds about a token; a tokenizer that does not grow with the text (one that counts any text as
        // one token) would keep this loop going for ever: it ends once the count stood still for a while, and says so.
        int grewAt = 0;
        for (int fillers = 0; count < tokens; fillers++) {
            if (fillers - grewAt > MAX_STILL_FILLERS) {
                throw new io.aiperf.engine.config.ConfigException("--tokenizer (benchmark.tokenizer.name)",
                        "tokenizer '" + tokenizer.name() + "' counts a text of " + sb.length() + " characters as "
                                + count + " tokens and does not grow with it: no prompt of " + tokens + " tokens can "
                                + "be built (is it the model's tokenizer?)");
            }
            sb.append(sb.length() == 0 ? "the" : FILLER);
            final int before = count;
            count = tokenizer.count(sb.toString());
            if (count > before) {
                grewAt = fillers;
            }
        }
        return sb.toString();
    }

    /** Fillers in a row that add no token before a tokenizer is judged not to grow with its text. */
    private static final int MAX_STILL_FILLERS = 64;

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
