package io.aiperf.engine.config;

/**
 * A configuration problem found before any traffic is sent. The CLI prints {@link #getMessage()} and
 * exits with code 2.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String field;
    private final String reason;

    public ConfigException(final String field, final String reason) {
        super(field == null || field.isEmpty() ? reason : field + ": " + reason);
        this.field = field;
        this.reason = reason;
    }

    /** The dotted path of the offending field (or CLI flag), empty for file-level problems. */
    public String field() {
        return field;
    }

    public String reason() {
        return reason;
    }
}
