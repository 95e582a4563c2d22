package io.aiperf.engine.summary;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * The {@code metadata} block of one {@code profile_export.jsonl} line, as {@link RecordCodec} writes it: a read line
 * ({@link RecordLine.Metadata}) or a request still in flight (the records writer's view of it, reused line after
 * line). A stamp or count that is absent is -1; a flag or a count written only when it happened is false or 0.
 */
public interface RecordMetadata {
    int sessionNum();

    String xRequestId();

    String xCorrelationId();

    String conversationId();

    int turnIndex();

    /** When the request was written (epoch ns). */
    long requestStartNs();

    /** When the schedule released it (epoch ns), or -1. */
    long creditIssuedNs();

    /** How long it waited for a connection (ns), or -1. */
    long poolWaitNs();

    /** How long its connect took (ns), or -1. */
    long connectNs();

    /** Whether the transport sent it again on a fresh connection. */
    boolean retried();

    int redirects();

    /** Stream chunks that were not valid server-sent events. */
    int malformedChunks();

    /** The output cap the request sent, or -1 (merged shards keep their token accounting from it). */
    int requestedOutputTokens();

    /** When the response head came (epoch ns), or -1. */
    long requestAckNs();

    /** When the engine had the outcome (epoch ns), or -1. */
    long requestEndNs();

    String workerId();

    String recordProcessorId();

    /** {@code profiling} or {@code warmup}. */
    String benchmarkPhase();

    boolean wasCancelled();

    /** When {@code --request-cancellation-rate} cancelled it (epoch ns), or -1. */
    long cancellationTimeNs();

    /** Fields this engine does not write (an upstream line's), in their order; empty for the engine's own lines. */
    Map<String, JsonNode> extra();

    /**
     * The phase that issued the request, as upstream AIPerf 0.13 names it on each line ({@code phase_name},
     * {@code phase_kind}, {@code phase_index}, {@code profiling_index}), or null when not known here (a line read
     * back keeps these fields among its {@link #extra()}).
     */
    default Phase phase() {
        return null;
    }

    /**
     * @param index the phase's place among all phases, from 0
     * @param profilingIndex its place among the profiling phases, or -1 for a warmup phase
     */
    record Phase(String name, String kind, int index, int profilingIndex) {
    }
}
