package io.aiperf.engine.validity;

import java.util.Locale;

/** The result of a validity check, from best to worst. */
public enum Result {
    OK, WARN, INVALID;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
