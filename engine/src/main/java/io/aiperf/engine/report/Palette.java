package io.aiperf.engine.report;

/**
 * The report's status colours: dark enough that white text on them reads, in the light scheme and the dark one.
 * The runs' own colours are {@link Chart#RUN_COLORS}.
 */
final class Palette {
    static final String GOOD = "#15803d";
    static final String WARN = "#b45309";
    static final String BAD = "#b91c1c";
    static final String NEUTRAL = "#4b5563";
    /** The page's type: the reader's system font, nothing fetched. */
    static final String FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

    private Palette() {
    }
}
