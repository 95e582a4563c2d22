package io.aiperf.engine.hooks;

/** A control POST failed; the message names the redacted URL and the status, never the response body. */
public final class HookException extends Exception {
    private static final long serialVersionUID = 1L;
    private final Integer statusCode;
    private final boolean retryable;

    public HookException(final String message, final Integer statusCode, final boolean retryable) {
        super(message);
        this.statusCode = statusCode;
        this.retryable = retryable;
    }

    public Integer statusCode() {
        return statusCode;
    }

    public boolean retryable() {
        return retryable;
    }
}
