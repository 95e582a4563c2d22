package io.aiperf.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Upstream AIPerf 0.13 sizes a synthetic dataset that was not sized on purpose by the load: as many entries as
 * sessions ({@code --conversation-num}), else as requests ({@code --request-count}), else 100; so does this engine
 * (the harness saw 20 sessions in upstream's inputs.json for {@code --request-count 20}, 100 here before). Both
 * counts at once are refused here.
 */
class SyntheticEntriesTest {
    private static final String YAML = "benchmark:\n  model: m\n";

    @Test
    void theRequestCountSizesTheDataset() {
        assertThat(ConfigLoader.fromYaml(YAML, new CliOverlay().phase("profiling", "requests", 20, "--request-count"))
                .dataset().entries()).isEqualTo(20);
    }

    @Test
    void theConversationCountSizesItToo() {
        assertThat(ConfigLoader.fromYaml(YAML, new CliOverlay().phase("profiling", "sessions", 4, "--conversation-num"))
                .dataset().entries()).isEqualTo(4);
    }

    @Test
    void anExplicitSizeWinsAndNothingMeans100() {
        assertThat(ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  dataset: {entries: 50}
                  phases: {concurrency: 2, requests: 7}
                """, new CliOverlay()).dataset().entries()).isEqualTo(50);
        assertThat(ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  phases: {concurrency: 2, requests: 7}
                """, new CliOverlay()).dataset().entries()).isEqualTo(7);
        assertThat(ConfigLoader.fromYaml(YAML, new CliOverlay()).dataset().entries()).isEqualTo(100);
    }
}
