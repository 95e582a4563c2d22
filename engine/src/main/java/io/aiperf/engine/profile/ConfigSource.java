package io.aiperf.engine.profile;

import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.search.SearchSpec;

/**
 * Where a profile's config comes from: the user's options and YAML file, which the command line parsed and binds
 * here. Each load binds and validates anew and throws {@link io.aiperf.engine.config.ConfigException} for a config
 * that cannot run. Not thread-safe: the profile changes what it names between loads.
 */
public interface ConfigSource {
    /**
     * The config as given, with what {@link #useModel} and {@link #useMock} set since; a request-rate search's at its
     * low end (the rate is its points').
     */
    BenchmarkConfig load();

    /** Whether the user named the model to benchmark (else the server's only model is asked for). */
    boolean namesModel();

    /** The model the configs loaded from now on benchmark. */
    void useModel(String model);

    /**
     * The configs loaded from now on benchmark the embedded mock at {@code url}: with the built-in tokenizer (the
     * mock's words are counted with o200k_base) and, without a YAML file, a model name, unless the user gave them.
     */
    void useMock(String url);

    /** Whether the user set per-request SLOs with {@code --goodput}. */
    boolean givesGoodput();

    /** A capacity search point's config: the run's, at this value of the knob (src-docs/capacity.md). */
    BenchmarkConfig at(SearchSpec search, int value);
}
