package io.aiperf.engine.config;

import java.util.Objects;

/** A credential whose {@link #toString()} never reveals it, so it cannot leak through logs or records. */
public final class Secret {
    public static final String REDACTED = "<redacted>";
    private final String value;

    public Secret(final String value) {
        this.value = Objects.requireNonNull(value);
    }

    /** The real value; call only where it is put on the wire. */
    public String reveal() {
        return value;
    }

    @Override
    public String toString() {
        return REDACTED;
    }
}
