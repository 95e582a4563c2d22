package io.aiperf.engine.config;

import java.util.Locale;

/** How a phase issues requests: a closed loop, or an open loop with an arrival pattern (AIPerf's timing and load docs). */
public enum LoadType {
    CONCURRENCY, CONSTANT, POISSON, GAMMA,
    /** Replays a dataset's timestamps (AIPerf's fixed schedule); an open loop without a rate. */
    FIXED_SCHEDULE,
    /** AIPerf's user-centric mode: N users, each sending its next turn N / rate seconds after its previous one. */
    USER_CENTRIC;

    /** Whether arrivals follow a schedule rather than completions (the open loops: not concurrency, not users). */
    public boolean isRate() {
        return this != CONCURRENCY && this != USER_CENTRIC;
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
        if (norm.equals("CONCURRENCY_BURST")) {
            return CONCURRENCY; // upstream's arrival-pattern name for the closed loop: no gap between sends
        }
        for (final LoadType t : values()) {
            if (t.name().equals(norm)) {
                return t;
            }
        }
        throw new ConfigException(field, "unknown phase type '" + text
                + "'; expected one of concurrency, concurrency_burst, constant, poisson, gamma, fixed_schedule, user_centric");
    }
}
