package io.aiperf.engine.metrics;

import io.aiperf.engine.dataset.Tokenizer;
import io.aiperf.engine.record.ErrorDetails;
import io.aiperf.engine.record.RequestRecord;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.record.TransportTimes;
import io.aiperf.engine.record.Usage;

/**
 * Per-request metric values of one record (AIPerf's metrics reference), in stored units (nanoseconds, tokens);
 * negative or NaN means absent. Compact: it keeps none of the response text or arrival stamps, so a run can keep
 * what it needs of every request without growing with the output. Immutable.
 *
 * @param error why the request is not valid, or null when it is
 * @param serverOutputTokens the output tokens the server reported (usage), or -1 when it did not
 * @param clientOutputTokens the output tokens the client counted, or -1 when it did not count (server counts used)
 * @param requestedOsl the output length asked for, or -1
 * @param ttfoNanos time to the first chunk with answer text (not reasoning), streaming only
 * @param usagePromptTokens the server's usage counts, -1 when it did not report them
 * @param usageCacheReadTokens the prompt tokens the server's usage says it read from its prompt cache, -1 when it
 *                             did not say
 * @param clientInputTokens the input tokens the client counted, or -1 when server counts are used
 * @param scheduleDelayNanos how long after its scheduled time an open-loop request was sent (issuer lag, the
 *                           concurrency ceiling, the connection pool), NaN in a closed loop; added to a latency it
 *                           gives the latency from the intended start, free of coordinated omission
 * @param images the images the request carried, 0 for none
 * @param creditToStartNanos from the request's credit (its intended start in an open loop, else its hand-off to the
 *                           transport) to its start, NaN when unknown; upstream 0.13's credit_to_start_latency
 * @param effectiveLatencyNanos from the credit to the request's end, NaN when unknown; upstream 0.13's
 *                              coordinated-omission-aware effective_latency
 * @param http the HTTP trace metrics of a valid request ({@link HttpMetrics#NONE} for a failed one)
 */
public record RecordMetrics(boolean valid, int sessionNum, long startEpochNanos, ErrorDetails error,
                            double latencyNanos, double ttftNanos, double ttstNanos, double ttfoNanos,
                            double itlNanos, double[] iclNanos, double outputTokensPerSecondPerUser, int isl,
                            int osl, int outputTokens, int reasoningTokens, double scheduleDelayNanos,
                            int serverOutputTokens, int clientOutputTokens, int requestedOsl, int usagePromptTokens,
                            int usageTotalTokens, int usageReasoningTokens, int usageCacheReadTokens,
                            int clientInputTokens, int images, double creditToStartNanos,
                            double effectiveLatencyNanos, HttpMetrics http) {

    /** A record without HTTP trace metrics (a failed request's). */
    public RecordMetrics(final boolean valid, final int sessionNum, final long startEpochNanos,
                         final ErrorDetails error, final double latencyNanos, final double ttftNanos,
                         final double ttstNanos, final double ttfoNanos, final double itlNanos, final double[] iclNanos,
                         final double outputTokensPerSecondPerUser, final int isl, final int osl,
                         final int outputTokens, final int reasoningTokens, final double scheduleDelayNanos,
                         final int serverOutputTokens, final int clientOutputTokens, final int requestedOsl,
                         final int usagePromptTokens, final int usageTotalTokens, final int usageReasoningTokens,
                         final int clientInputTokens, final int images, final double creditToStartNanos,
                         final double effectiveLatencyNanos) {
        this(valid, sessionNum, startEpochNanos, error, latencyNanos, ttftNanos, ttstNanos, ttfoNanos, itlNanos,
                iclNanos, outputTokensPerSecondPerUser, isl, osl, outputTokens, reasoningTokens, scheduleDelayNanos,
                serverOutputTokens, clientOutputTokens, requestedOsl, usagePromptTokens, usageTotalTokens,
                usageReasoningTokens, -1, clientInputTokens, images, creditToStartNanos, effectiveLatencyNanos,
                HttpMetrics.NONE);
    }

    private static final ErrorDetails INVALID = new ErrorDetails(null, "InvalidInferenceResultError",
            "Invalid inference result");

    /** The first negative count of a usage object, as "name value", or null. */
    private static String negative(final Usage u) {
        if (u == null) {
            return null;
        }
        final Integer[] counts = {u.promptTokens(), u.completionTokens(), u.totalTokens(), u.reasoningTokens()};
        final String[] names = {"prompt_tokens", "completion_tokens", "total_tokens", "reasoning_tokens"};
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] != null && counts[i] < 0) {
                return names[i] + " " + counts[i];
            }
        }
        return null;
    }

    /** A request counted as failed with the given error, whatever its response said. */
    public static RecordMetrics failed(final RequestRecord r, final ErrorDetails error) {
        final long issued = creditNanos(r);
        return new RecordMetrics(false, r.sessionNum(), r.startEpochNanos(), error, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, null, Double.NaN, r.inputTokens(), -1, -1, -1, Double.NaN, -1, -1, -1, -1, -1,
                -1, -1, r.images(), since(issued, r.response().startPerfNanos()), since(issued, r.endNanos()));
    }

    /** When the request's credit was issued (monotonic ns): its intended start in an open loop, else its hand-off. */
    private static long creditNanos(final RequestRecord r) {
        if (r.intendedStartPerfNanos() >= 0) {
            return r.intendedStartPerfNanos();
        }
        final TransportTimes t = r.response().transport();
        return t == null ? -1 : t.issuedNanos();
    }

    /** {@code to - from}, at least 0 (as upstream clamps), NaN when either is unknown. */
    private static double since(final long from, final long to) {
        return from < 0 || to < 0 ? Double.NaN : Math.max(0, to - from);
    }

    /**
     * @param streaming TTFT, TTST, ITL and ICL exist only for streamed responses
     * @param serverTokens take ISL and output counts from the server's usage (AIPerf's endpoint and streaming docs)
     */
    public static RecordMetrics of(final RequestRecord r, final boolean streaming, final boolean serverTokens,
                                   final Tokenizer tokenizer) {
        return of(r, streaming, serverTokens, false, tokenizer);
    }

    /**
     * @param perChunkUsage ITL leaves out the tokens the first content chunk brought, as the server's per-chunk usage
     *                      counts them ({@code --per-chunk-usage}), instead of one; without such a count, or with
     *                      one that does not fit the OSL (not positive, or not below it), one, as upstream does
     */
    public static RecordMetrics of(final RequestRecord r, final boolean streaming, final boolean serverTokens,
                                   final boolean perChunkUsage, final Tokenizer tokenizer) {
        final ResponseData d = r.response();
        if (!r.isValid()) {
            return failed(r, d.error() != null ? d.error() : INVALID);
        }
        final double latency = d.lastContentNanos() - d.startPerfNanos();
        int output;
        int reasoning;
        int isl;
        if (serverTokens) {
            final Usage u = d.usage();
            final String negative = negative(u);
            if (negative != null) {
                // a count the server got wrong must not silently drop the record's token metrics
                return failed(r, new ErrorDetails(null, "InvalidInferenceResultError", "the server's usage has a "
                        + "negative count: " + negative));
            }
            reasoning = u == null || u.reasoningTokens() == null ? -1 : u.reasoningTokens();
            output = u == null || u.completionTokens() == null ? -1
                    : Math.max(0, u.completionTokens() - Math.max(reasoning, 0));
            isl = u == null || u.promptTokens() == null ? -1 : u.promptTokens();
        } else {
            output = d.content() == null ? -1 : tokenizer.count(d.content());
            reasoning = d.reasoning() == null ? -1 : tokenizer.count(d.reasoning());
            isl = r.inputTokens();
        }
        if (output == 0) {
            output = -1; // an output count of 0 is treated as absent (AIPerf's endpoint and streaming docs)
        }
        final int osl = output < 0 && reasoning < 0 ? -1 : Math.max(output, 0) + Math.max(reasoning, 0);
        double ttft = Double.NaN;
        double ttst = Double.NaN;
        double ttfo = Double.NaN;
        double itl = Double.NaN;
        double perUser = Double.NaN;
        double[] icl = null;
        if (streaming && d.streamed()) { // a JSON answer to a streaming request has no first token to time
            ttft = d.firstContentNanos() - d.startPerfNanos();
            if (d.firstOutputIndex() >= 0) {
                ttfo = d.contentPerfNanos()[d.firstOutputIndex()] - d.startPerfNanos();
            }
            if (d.contentCount() >= 2) {
                ttst = d.contentPerfNanos()[1] - d.contentPerfNanos()[0];
                icl = new double[d.contentCount() - 1];
                for (int i = 1; i < d.contentCount(); i++) {
                    icl[i - 1] = d.contentPerfNanos()[i] - d.contentPerfNanos()[i - 1];
                    if (icl[i - 1] < 0) {
                        icl = null; // non-monotonic arrivals: suppressed (AIPerf's metrics reference)
                        break;
                    }
                }
            }
            if (osl >= 2) {
                final int first = d.firstChunkTokens();
                final int decode = perChunkUsage && first > 0 && osl - first >= 1 ? osl - first : osl - 1;
                itl = (latency - ttft) / decode;
                if (itl > 0) {
                    perUser = 1e9 / itl;
                }
            }
        }
        final double delay = r.intendedStartPerfNanos() < 0 ? Double.NaN
                : Math.max(0, d.startPerfNanos() - r.intendedStartPerfNanos());
        final Usage u = d.usage();
        final int server = u == null || u.completionTokens() == null ? -1 : u.completionTokens();
        final int client = serverTokens ? -1 : Math.max(output, 0) + Math.max(reasoning, 0);
        return new RecordMetrics(true, r.sessionNum(), r.startEpochNanos(), null, latency, ttft, ttst, ttfo, itl, icl,
                perUser, isl, osl, output, reasoning, delay, server, client,
                r.requestedOsl() == null ? -1 : r.requestedOsl(), orAbsent(u == null ? null : u.promptTokens()),
                orAbsent(u == null ? null : u.totalTokens()), orAbsent(u == null ? null : u.reasoningTokens()),
                orAbsent(u == null ? null : u.cacheReadTokens()), serverTokens ? -1 : r.inputTokens(), r.images(),
                since(creditNanos(r), d.startPerfNanos()), since(creditNanos(r), r.endNanos()), HttpMetrics.of(r));
    }

    private static int orAbsent(final Integer v) {
        return v == null ? -1 : v;
    }

    /** Images per request, NaN for a request without images (AIPerf's image metrics). */
    public double imagesOrNaN() {
        return images > 0 ? images : Double.NaN;
    }

    /** The request latency measured from the intended start (open loop), NaN otherwise. */
    public double latencyFromIntendedNanos() {
        return latencyNanos + scheduleDelayNanos;
    }

    /** TTFT measured from the intended start (open loop, streaming), NaN otherwise. */
    public double ttftFromIntendedNanos() {
        return ttftNanos + scheduleDelayNanos;
    }
}
