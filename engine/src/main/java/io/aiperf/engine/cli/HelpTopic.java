package io.aiperf.engine.cli;

/**
 * The topics of {@code aiperf profile --help}, in the order shown, as upstream AIPerf groups its options. An option
 * names its topic with {@link Topic} (a mixin class may name one for all its options); within a topic, options are
 * listed in the order they are declared.
 */
enum HelpTopic {
    ENDPOINT("Endpoint"),
    LOAD("Load"),
    WARMUP("Warmup"),
    INPUT("Input: prompts and datasets"),
    MEDIA("Input: synthetic images and audio"),
    SESSIONS("Input: sessions (multi-turn)"),
    TOKENIZER("Tokenizer"),
    OUTPUT("Output"),
    CONSOLE("Console and logging"),
    TRIALS("Config, sweeps and trials"),
    SEARCH("Capacity search"),
    HOOKS("Control hooks"),
    SERVER_METRICS("Server metrics and GPU telemetry"),
    CI("Regression gate, shards and CI"),
    HTTP("HTTP client"),
    NO_EFFECT("Accepted for upstream scripts (no effect here)"),
    /** picocli's --help and --version. */
    HELP("Help");

    final String title;

    HelpTopic(final String title) {
        this.title = title;
    }
}
