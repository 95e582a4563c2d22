package io.aiperf.engine.record;

/**
 * One request of a phase, immutable: what was sent and what came back.
 *
 * @param phaseName the phase that issued it
 * @param profiling whether the phase's records are measured
 * @param sessionNum the session's number within the phase (single-turn: one session per request)
 * @param turnIndex the turn of the session's conversation, from 0
 * @param startEpochNanos wall-clock stamp of {@code response.startPerfNanos()}
 * @param inputTokens ISL of the prompt sent, or -1 when the endpoint has no input text
 * @param requestedOsl the token cap sent, or null
 * @param wasCancelled the run was stopped before this request finished
 * @param intendedStartPerfNanos when an open loop's schedule meant to send it (monotonic ns), or -1 when no
 *                               schedule set the time (closed loop)
 * @param requestBody the exact body sent, kept only for the raw export ({@code --export-level raw}), else null
 * @param cancelPerfNanos when {@code --request-cancellation-rate} cancelled it (monotonic ns), or -1
 * @param images the images the request carried (multimodal rows, image retrieval)
 * @param endPerfNanos when the engine had the request's outcome (monotonic ns), or -1: a failed request's end
 */
public record RequestRecord(String phaseName, boolean profiling, int sessionNum, String xRequestId,
                            String xCorrelationId, String conversationId, int turnIndex, String model, long startEpochNanos,
                            int inputTokens, Integer requestedOsl, ResponseData response, boolean wasCancelled,
                            long intendedStartPerfNanos, byte[] requestBody, long cancelPerfNanos, int images,
                            long endPerfNanos) {

    /** A record whose outcome time is not known (only a failed record needs it). */
    public RequestRecord(final String phaseName, final boolean profiling, final int sessionNum, final String xRequestId,
                         final String xCorrelationId, final String conversationId, final int turnIndex,
                         final String model, final long startEpochNanos, final int inputTokens,
                         final Integer requestedOsl, final ResponseData response, final boolean wasCancelled,
                         final long intendedStartPerfNanos, final byte[] requestBody, final long cancelPerfNanos,
                         final int images) {
        this(phaseName, profiling, sessionNum, xRequestId, xCorrelationId, conversationId, turnIndex, model,
                startEpochNanos, inputTokens, requestedOsl, response, wasCancelled, intendedStartPerfNanos, requestBody,
                cancelPerfNanos, images, -1);
    }

    /**
     * AIPerf's {@code request_end_ns} (monotonic here): the last response when content came, else when the failure
     * was seen, else -1.
     */
    public long endNanos() {
        return response.hasContent() ? response.lastContentNanos() : endPerfNanos;
    }

    /** Valid per AIPerf's endpoint and streaming docs: no error, at least one content response, ordered timestamps. */
    public boolean isValid() {
        return response.error() == null && response.hasContent()
                && response.firstContentNanos() >= response.startPerfNanos();
    }
}
