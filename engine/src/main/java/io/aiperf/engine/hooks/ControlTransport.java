package io.aiperf.engine.hooks;

/** Sends one control POST. Implementations are thread-safe; tests substitute fakes. */
public interface ControlTransport {
    /**
     * One attempt: an empty-body POST with its own timeout and no retries inside it.
     *
     * @return the status code, or throws for transport failures (timeout, refused, reset)
     */
    int post(String url, double timeoutSeconds) throws java.io.IOException;
}
