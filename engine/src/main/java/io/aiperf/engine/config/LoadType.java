package io.aiperf.engine.config;

import java.util.Locale;

/** How a phase issues requests: a closed loop, or an open loop with an arrival pattern (AIPerf's timing and load docs). */
public enum LoadType {
    CONCURRENCY, CONSTANT, POISSON, GAMMA;

    public boolean isRate() {
        return this != CONCURRENCY;
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
                + "'; expected one of concurrency, constant, poisson, gamma");
    }
}
