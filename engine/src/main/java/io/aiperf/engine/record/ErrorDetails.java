package io.aiperf.engine.record;

/**
 * Why a request failed, as AIPerf reports it (AIPerf's endpoint and streaming docs): HTTP status and reason phrase, or the
 * exception type for transport failures ({@code code} null).
 */
public record ErrorDetails(Integer code, String type, String message) {
    public static final int CANCELLED_CODE = 499;
}
