package io.aiperf.engine.run;

import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.dataset.SyntheticDataset;
import io.aiperf.engine.dataset.Tokenizer;

/** A one-phase config and its request source, for runner tests that need no server. */
record PhaseFixture(BenchmarkConfig config, RequestSource source) {
    /** @param phaseYaml one phase in YAML flow style, e.g. {@code {name: profiling, concurrency: 2, requests: 12}} */
    static PhaseFixture of(final String phaseYaml) {
        final BenchmarkConfig config = ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  endpoint: {url: "http://127.0.0.1:9"}
                  dataset: {isl: 8, osl: 2, entries: 4}
                  phases: [%s]
                """.formatted(phaseYaml), new CliOverlay());
        return new PhaseFixture(config, new RequestSource(config,
                SyntheticDataset.generate(config.dataset(), 1L, Tokenizer.builtin()), "test"));
    }
}
