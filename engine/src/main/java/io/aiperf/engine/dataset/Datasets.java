package io.aiperf.engine.dataset;

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
    public static List<Conversation> load(final DatasetConfig config, final Long seed, final Tokenizer tokenizer,
                                          final PhaseConfig.Schedule schedule, final boolean rankings) {
        if (config.publicDataset() != null) {
            return ShareGptDataset.load(config.publicDataset().path(), config.entries(), config.oslMean(), seed,
                    tokenizer);
        }
        if (config.file() != null) {
            return FileDataset.load(config.file(), config.oslMean(), seed, tokenizer, schedule, config.turnDelayCapMs());
        }
        return rankings ? SyntheticDataset.rankings(config, seed, tokenizer)
                : SyntheticDataset.generate(config, seed, tokenizer);
    }
}
