package io.aiperf.engine.dataset;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.DatasetConfig;
import io.aiperf.engine.config.PhaseConfig;
import java.util.List;

/** The conversations of a run, from whichever source the config names (src-docs/datasets.md). Stateless. */
public final class Datasets {
    private Datasets() {
    }

    /**
     * As {@link #load(DatasetConfig, Long, Tokenizer, PhaseConfig.Schedule, boolean)}, watched by a
     * {@link TokenizerWatchdog}: a cancel (the first SIGINT or SIGTERM) stops the wait at once, and a tokenizer that
     * spends more than {@code floorNanos} plus its time per character (a model's tokenizer.json whose pre-tokenizer
     * regex backtracks, in native code nothing can interrupt) ends it with a clear error.
     *
     * @throws java.util.concurrent.CancellationException when cancelled before the prompts were ready
     * @throws ConfigException when the tokenizer went over its bound
     */
    public static List<Conversation> load(final DatasetConfig config, final Long seed, final Tokenizer tokenizer,
                                          final PhaseConfig.Schedule schedule, final boolean rankings,
                                          final java.util.function.BooleanSupplier cancelled, final long floorNanos)
            throws InterruptedException {
        final TokenizerWatchdog watched = new TokenizerWatchdog(tokenizer, floorNanos);
        return watched.run(() -> load(config, seed, watched, schedule, rankings, null), cancelled, "building prompts");
    }

    /**
     * As {@link #load(DatasetConfig, Long, Tokenizer, PhaseConfig.Schedule, boolean)}, synthetic prompts shortened by
     * what the chat template adds to them; the caller watches the tokenizer.
     *
     * @param template the run's chat template counter, or null when none is applied
     */
    public static List<Conversation> load(final DatasetConfig config, final Long seed, final Tokenizer tokenizer,
                                          final PhaseConfig.Schedule schedule, final boolean rankings,
                                          final ChatTemplateCounter template) {
        final List<Conversation> loaded = source(config, seed, tokenizer, schedule, rankings, template);
        return config.systemPrompt() == null ? loaded : withSystemPrompt(loaded, config.systemPrompt(), tokenizer);
    }

    /**
     * @param schedule the profiling phase's replay window, or null
     */
    public static List<Conversation> load(final DatasetConfig config, final Long seed, final Tokenizer tokenizer,
                                          final PhaseConfig.Schedule schedule, final boolean rankings) {
        return load(config, seed, tokenizer, schedule, rankings, null);
    }

    /**
     * Every conversation with the verbatim system prompt (upstream AIPerf's {@code --system-prompt}): it becomes the
     * system message, put before (joined by a blank line) a system message the dataset brought, so the server sees
     * one system message, not two.
     */
    static List<Conversation> withSystemPrompt(final List<Conversation> conversations, final String prompt,
                                               final Tokenizer tokenizer) {
        final int alone = tokenizer.count(prompt);
        final List<Conversation> out = new java.util.ArrayList<>(conversations.size());
        for (final Conversation c : conversations) {
            if (c.systemPrompt() == null) {
                out.add(new Conversation(c.id(), prompt, alone, c.turns(), c.timestampMs()));
            } else {
                final String joined = prompt + "\n\n" + c.systemPrompt();
                out.add(new Conversation(c.id(), joined, tokenizer.count(joined), c.turns(), c.timestampMs()));
            }
        }
        return out;
    }

    private static List<Conversation> source(final DatasetConfig config, final Long seed, final Tokenizer tokenizer,
                                             final PhaseConfig.Schedule schedule, final boolean rankings,
                                             final ChatTemplateCounter template) {
        if (config.publicDataset() != null) {
            return ShareGptDataset.load(config.publicDataset().path(), config.entries(), config.oslMean(), seed,
                    tokenizer);
        }
        if (config.file() != null) {
            return FileDataset.load(config.file(), config.oslMean(), seed, tokenizer, schedule, config.turnDelayCapMs(),
                    config.entries());
        }
        return rankings ? SyntheticDataset.rankings(config, seed, tokenizer)
                : new SyntheticMediaMaker(config.media(), seed).attach(SyntheticDataset.generate(config, seed, tokenizer,
                        template == null ? 0 : template.firstTurnOverhead(),
                        template == null ? 0 : template.laterTurnOverhead()));
    }
}
