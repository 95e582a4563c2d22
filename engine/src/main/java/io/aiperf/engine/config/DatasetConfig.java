package io.aiperf.engine.config;

import java.util.Locale;

/**
 * The prompts (src-docs/datasets.md): synthetic, from a file, or a public dataset read from a local copy.
 *
 * @param entries number of distinct synthetic conversations
 * @param islMean mean input length in tokens
 * @param oslMean mean output cap in tokens, or null for no cap
 * @param file the input file, or null
 * @param publicDataset the public dataset, or null
 * @param turns turns per synthetic conversation and the think time between them
 * @param prefixes shared prefix prompts and system prompt of synthetic conversations
 * @param sequences (ISL, OSL) pairs drawn by probability instead of the ISL/OSL distributions, or null
 * @param sampling how sessions pick conversations, or null for the source's default
 * @param turnDelayCapMs the longest think time between turns ({@code --inter-turn-delay-cap-seconds}), or null
 * @param rankings the synthetic queries and passages of a rankings endpoint
 * @param media the synthetic images and audio sent with each synthetic prompt
 * @param systemPrompt a verbatim system prompt for every conversation ({@code --system-prompt}, or the text of
 *                     {@code --system-prompt-file}), or null
 */
public record DatasetConfig(int entries, double islMean, double islStddev, Double oslMean, double oslStddev,
                            InputFile file, PublicDataset publicDataset, Turns turns, Prefixes prefixes,
                            SequenceDistribution sequences, Sampling sampling, Long turnDelayCapMs,
                            Rankings rankings, SyntheticMedia media, String systemPrompt) {

    /** A dataset without synthetic images or audio. */
    public DatasetConfig(final int entries, final double islMean, final double islStddev, final Double oslMean,
                         final double oslStddev, final InputFile file, final PublicDataset publicDataset,
                         final Turns turns, final Prefixes prefixes, final SequenceDistribution sequences,
                         final Sampling sampling, final Long turnDelayCapMs, final Rankings rankings) {
        this(entries, islMean, islStddev, oslMean, oslStddev, file, publicDataset, turns, prefixes, sequences,
                sampling, turnDelayCapMs, rankings, SyntheticMedia.NONE, null);
    }

    /** The file formats read (AIPerf's {@code --custom-dataset-type}). */
    public enum Format {
        SINGLE_TURN, MULTI_TURN, RANDOM_POOL, MOONCAKE_TRACE,
        /** Each row is a complete request body, sent as it is to any endpoint type (a directory: a conversation per file). */
        RAW_PAYLOAD;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How sessions pick conversations (AIPerf's {@code --dataset-sampling-strategy}). */
    public enum Sampling {
        /** In order, wrapping around. */
        SEQUENTIAL,
        /** Uniformly, with replacement. */
        RANDOM,
        /** A seeded permutation, reshuffled when used up: every conversation once before any repeats. */
        SHUFFLE;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The sampling a run uses: the one asked for, else shuffle for pools and public data, else sequential. */
    public Sampling effectiveSampling() {
        if (sampling != null) {
            return sampling;
        }
        return publicDataset != null || (file != null && file.format() == Format.RANDOM_POOL)
                ? Sampling.SHUFFLE : Sampling.SEQUENTIAL;
    }

    /**
     * @param path the JSONL file
     * @param blockSize tokens per hash id of a trace ({@code --isl-block-size}; 512 for mooncake)
     * @param timestampsMs each row's timestamp in file order, null entries for rows without one
     * @param ignoreDelays drop the rows' timestamps and the turns' delays ({@code --ignore-trace-delays})
     * @param mediaRoots folders besides the file's own that rows may read images and audio from
     *                   ({@code --media-root}); empty for the file's folder only
     * @param synthesis how a mooncake trace's rows are reshaped as they are read (YAML {@code dataset.synthesis})
     */
    public record InputFile(String path, Format format, int blockSize, java.util.List<Long> timestampsMs,
                            boolean ignoreDelays, java.util.List<String> mediaRoots, Synthesis synthesis) {
        /** Whether the path is a directory (raw_payload conversations, random_pool pools), one file per entry. */
        public boolean directory() {
            return java.nio.file.Files.isDirectory(java.nio.file.Path.of(path));
        }

        /** Whether the first row carries a timestamp: such a trace replays on its own schedule by default. */
        public boolean timestamped() {
            return !ignoreDelays && !timestampsMs.isEmpty() && timestampsMs.get(0) != null;
        }
    }

    /**
     * Upstream's trace synthesis settings that this engine applies to a mooncake trace (src-docs/datasets.md):
     * timestamps divided by {@code speedupRatio}, rows above {@code maxIsl} input tokens dropped, output lengths
     * capped at {@code maxOsl}.
     *
     * @param maxIsl the longest input_length kept, or null
     * @param maxOsl the output_length cap, or null
     */
    public record Synthesis(double speedupRatio, Integer maxIsl, Integer maxOsl) {
        public static final Synthesis NONE = new Synthesis(1.0, null, null);

        /** Whether a row of {@code inputLength} tokens is replayed. */
        public boolean keeps(final long inputLength) {
            return maxIsl == null || inputLength <= maxIsl;
        }

        /** A trace timestamp on the sped-up clock. */
        public long timestamp(final long ms) {
            return speedupRatio == 1.0 ? ms : Math.round(ms / speedupRatio);
        }

        public Integer outputLength(final Integer osl) {
            return osl == null || maxOsl == null ? osl : Integer.valueOf(Math.min(osl, maxOsl));
        }
    }

    /**
     * A public dataset read from a local copy ({@code --public-dataset}).
     *
     * @param name {@code sharegpt}
     * @param path the local file found
     */
    public record PublicDataset(String name, String path) {
    }

    /**
     * Multi-turn shape of synthetic conversations (AIPerf's {@code --session-turns-*} and
     * {@code --session-turn-delay-*}).
     *
     * @param mean turns per conversation, Normal(mean, stddev), at least 1
     * @param delayMeanMs think time before each later turn, Normal(mean, stddev) x ratio, in ms
     */
    public record Turns(double mean, double stddev, double delayMeanMs, double delayStddevMs, double delayRatio) {
        public static final Turns SINGLE = new Turns(1, 0, 0, 0, 1.0);

        public boolean multiTurn() {
            return mean > 1 || stddev > 0;
        }
    }

    /**
     * Synthetic rankings requests (AIPerf's {@code --rankings-*} options): passages per query and the token lengths
     * of queries and passages, each Normal(mean, stddev).
     */
    public record Rankings(double passagesMean, double passagesStddev, double passageTokensMean,
                           double passageTokensStddev, double queryTokensMean, double queryTokensStddev) {
        public static final Rankings DEFAULTS = new Rankings(1, 0, 550, 0, 550, 0);
    }

    /**
     * Shared prefixes of synthetic conversations (AIPerf's prefix prompt options).
     *
     * @param poolSize prompts in the prefix pool ({@code --num-prefix-prompts}); 0 for none
     * @param length tokens of each pool prompt ({@code --prefix-prompt-length}), put before each first turn
     * @param sharedSystemLength tokens of one system prompt shared by every conversation, or 0
     * @param userContextLength tokens of a context put before each conversation's first turn, different for each
     *                          conversation ({@code --user-context-prompt-length}), or 0
     */
    public record Prefixes(int poolSize, int length, int sharedSystemLength, int userContextLength) {
        public static final Prefixes NONE = new Prefixes(0, 0, 0, 0);
    }
}
