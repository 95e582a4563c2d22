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
 */
public record RequestRecord(String phaseName, boolean profiling, int sessionNum, String xRequestId,
                            String xCorrelationId, String conversationId, int turnIndex, String model, long startEpochNanos,
                            int inputTokens, Integer requestedOsl, ResponseData response, boolean wasCancelled,
                            long intendedStartPerfNanos, byte[] requestBody, long cancelPerfNanos, int images) {

    /** Valid per AIPerf's endpoint and streaming docs: no error, at least one content response, ordered timestamps. */
    public boolean isValid() {
        return response.error() == null && response.hasContent()
                && response.firstContentNanos() >= response.startPerfNanos();
    }
}
