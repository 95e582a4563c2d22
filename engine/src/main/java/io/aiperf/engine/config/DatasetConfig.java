package io.aiperf.engine.config;

/**
 * The prompts: synthetic (AIPerf's endpoint and streaming docs) or from a file (src-docs/datasets.md).
 *
 * @param entries number of distinct synthetic entries
 * @param islMean mean input length in tokens
 * @param oslMean mean output cap in tokens, or null for no cap
 * @param file the input file, or null for synthetic prompts
 */
public record DatasetConfig(int entries, double islMean, double islStddev, Double oslMean, double oslStddev,
                            InputFile file) {

    /** The file formats read (AIPerf's {@code --custom-dataset-type}). */
    public enum Format {
        SINGLE_TURN, MOONCAKE_TRACE;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * @param path the JSONL file
     * @param blockSize tokens per hash id of a trace ({@code --isl-block-size}; 512 for mooncake)
     * @param timestampsMs each row's timestamp in file order, null entries for rows without one
     */
    public record InputFile(String path, Format format, int blockSize, java.util.List<Long> timestampsMs) {
        /** Whether the first row carries a timestamp: such a trace replays on its own schedule by default. */
        public boolean timestamped() {
            return !timestampsMs.isEmpty() && timestampsMs.get(0) != null;
        }
    }
}
