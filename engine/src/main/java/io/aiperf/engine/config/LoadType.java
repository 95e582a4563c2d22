package io.aiperf.engine.config;

import java.util.Locale;

/** How a phase issues requests: a closed loop, or an open loop with an arrival pattern (AIPerf's timing and load docs). */
public enum LoadType {
    CONCURRENCY, CONSTANT, POISSON, GAMMA,
    /** Replays a dataset's timestamps (AIPerf's fixed schedule); an open loop without a rate. */
    FIXED_SCHEDULE;

    /** Whether arrivals follow a schedule rather than completions (every type but concurrency). */
    public boolean isRate() {
        return this != CONCURRENCY;
    }

    /** Whether the schedule comes from a rate (constant, poisson, gamma). */
    public boolean needsRate() {
        return this == CONSTANT || this == POISSON || this == GAMMA;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static LoadType parse(final String field, final String text) {
        final String norm = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (final LoadType t : values()) {
            if (t.name().equals(norm)) {
                return t;
            }
        }
        throw new ConfigException(field, "unknown phase type '" + text
                + "'; expected one of concurrency, constant, poisson, gamma, fixed_schedule");
    }
}
