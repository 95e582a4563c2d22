package io.aiperf.engine.client;

import io.aiperf.engine.record.ResponseData;
import java.util.function.Consumer;

/**
 * Sends one inference request and reports its result once: what the phase runner needs from a client, so the
 * runner can be tested without HTTP. {@link InferenceClient} is the real one. Implementations are thread-safe.
 */
public interface RequestTransport {
    /**
     * @param handle lets the runner cancel the request (the grace period ran out)
     * @param done called exactly once with the response or the error record; may be called on another thread
     */
    void send(PreparedRequest request, String requestId, String correlationId, InFlight handle,
              Consumer<ResponseData> done);
}
