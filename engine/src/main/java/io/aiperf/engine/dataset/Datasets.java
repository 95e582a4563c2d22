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
     * @param schedule the profiling phase's replay window, or null
     */
    /** The longest one tokenizer call may take while prompts are built: beyond it, its regex is backtracking. */
    public static final long TOKENIZER_BUDGET_NANOS = 60_000_000_000L;

    /**
     * As {@link #load(DatasetConfig, Long, Tokenizer, PhaseConfig.Schedule, boolean)}, on a worker thread this one
     * watches: a cancel (the first SIGINT or SIGTERM) stops the wait at once, and a tokenizer call that runs longer
     * than {@code budgetNanos} (a model's tokenizer.json whose pre-tokenizer regex backtracks on a text, in native
     * code nothing can interrupt) ends it with a clear error. The abandoned worker is a daemon: it ends with the JVM.
     *
     * @throws java.util.concurrent.CancellationException when cancelled before the prompts were ready
     * @throws ConfigException when one tokenizer call ran over the budget
     */
    public static List<Conversation> load(final DatasetConfig config, final Long seed, final Tokenizer tokenizer,
                                          final PhaseConfig.Schedule schedule, final boolean rankings,
                                          final java.util.function.BooleanSupplier cancelled, final long budgetNanos)
            throws InterruptedException {
        return load(config, seed, tokenizer, schedule, rankings, cancelled, budgetNanos, null);
    }

    /**
     * As {@link #load(DatasetConfig, Long, Tokenizer, PhaseConfig.Schedule, boolean, java.util.function.BooleanSupplier,
     * long)}, synthetic prompts shortened by what the chat template adds to them.
     *
     * @param template the run's chat template counter, or null when none is applied
     */
    public static List<Conversation> load(final DatasetConfig config, final Long seed, final Tokenizer tokenizer,
                                          final PhaseConfig.Schedule schedule, final boolean rankings,
                                          final java.util.function.BooleanSupplier cancelled, final long budgetNanos,
                                          final ChatTemplateCounter template)
            throws InterruptedException {
        final WatchedTokenizer watched = new WatchedTokenizer(tokenizer);
        final java.util.concurrent.CompletableFuture<List<Conversation>> result = new java.util.concurrent.CompletableFuture<>();
        final Thread worker = new Thread(() -> {
            try {
                result.complete(load(config, seed, watched, schedule, rankings, template));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, "dataset-build");
        worker.setDaemon(true);
        worker.start();
        while (true) {
            try {
                return result.get(50, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                if (cancelled.getAsBoolean()) {
                    throw new java.util.concurrent.CancellationException("cancelled while building prompts");
                }
                final long started = watched.callStartedNanos;
                if (started != 0 && System.nanoTime() - started > budgetNanos) {
                    throw new ConfigException("--tokenizer", "tokenizer " + tokenizer.name() + " spent more than "
                            + String.format(java.util.Locale.ROOT, "%.1f", budgetNanos / 1e9) + " s on one text while building prompts: its "
                            + "pre-tokenizer regex likely backtracks on it; use --tokenizer builtin, or fix the "
                            + "tokenizer.json");
                }
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                if (e.getCause() instanceof Error err) {
                    throw err;
                }
                throw new IllegalStateException(e.getCause());
            }
        }
    }

    /** A tokenizer that says when its current call began (0 when none runs), for the watcher. */
    private static final class WatchedTokenizer implements Tokenizer {
        private final Tokenizer inner;
        private volatile long callStartedNanos;

        WatchedTokenizer(final Tokenizer inner) {
            this.inner = inner;
        }

        @Override
        public int count(final String text) {
            callStartedNanos = Math.max(1, System.nanoTime());
            try {
                return inner.count(text);
            } finally {
                callStartedNanos = 0;
            }
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public String source() {
            return inner.source();
        }

        @Override
        public String revision() {
            return inner.revision();
        }

        @Override
        public java.nio.file.Path file() {
            return inner.file();
        }

        @Override
        public int vocabularySize() {
            return inner.vocabularySize();
        }
    }

    public static List<Conversation> load(final DatasetConfig config, final Long seed, final Tokenizer tokenizer,
                                          final PhaseConfig.Schedule schedule, final boolean rankings) {
        return load(config, seed, tokenizer, schedule, rankings, null);
    }

    private static List<Conversation> load(final DatasetConfig config, final Long seed, final Tokenizer tokenizer,
                                           final PhaseConfig.Schedule schedule, final boolean rankings,
                                           final ChatTemplateCounter template) {
        final List<Conversation> loaded = source(config, seed, tokenizer, schedule, rankings, template);
        return config.systemPrompt() == null ? loaded : withSystemPrompt(loaded, config.systemPrompt(), tokenizer);
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
