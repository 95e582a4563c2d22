package io.aiperf.engine.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The metrics this engine computes (AIPerf's metrics reference), in export order. */
public final class MetricRegistry {
    private static final double NS_TO_MS = 1e6;

    public static final MetricSpec REQUEST_LATENCY = new MetricSpec("request_latency", "Request Latency", "ms", true, false, NS_TO_MS);
    public static final MetricSpec TTFT = new MetricSpec("time_to_first_token", "Time to First Token", "ms", true, false, NS_TO_MS);
    public static final MetricSpec TTST = new MetricSpec("time_to_second_token", "Time to Second Token", "ms", true, false, NS_TO_MS);
    public static final MetricSpec ITL = new MetricSpec("inter_token_latency", "Inter Token Latency", "ms", true, false, NS_TO_MS);
    /** Open loop only, next to AIPerf's: latencies from the schedule's intended start (no coordinated omission). */
    public static final MetricSpec LATENCY_FROM_INTENDED = new MetricSpec("request_latency_from_intended", "Request Latency (from intended start)", "ms", true, false, NS_TO_MS);
    public static final MetricSpec TTFT_FROM_INTENDED = new MetricSpec("time_to_first_token_from_intended", "Time to First Token (from intended start)", "ms", true, false, NS_TO_MS);
    public static final MetricSpec ICL = new MetricSpec("inter_chunk_latency", "Inter Chunk Latency", "ms", true, false, NS_TO_MS);
    public static final MetricSpec OTPS_USER = new MetricSpec("output_token_throughput_per_user", "Output Token Throughput Per User", "tokens/sec/user", true, true, 1);
    public static final MetricSpec ISL = new MetricSpec("input_sequence_length", "Input Sequence Length", "tokens", true, true, 1);
    public static final MetricSpec OSL = new MetricSpec("output_sequence_length", "Output Sequence Length", "tokens", true, true, 1);
    public static final MetricSpec OUTPUT_TOKENS = new MetricSpec("output_token_count", "Output Token Count", "tokens", true, true, 1);
    public static final MetricSpec REASONING_TOKENS = new MetricSpec("reasoning_token_count", "Reasoning Token Count", "tokens", true, true, 1);
    public static final MetricSpec REQUEST_THROUGHPUT = new MetricSpec("request_throughput", "Request Throughput", "requests/sec", false, true, 1);
    public static final MetricSpec OUTPUT_THROUGHPUT = new MetricSpec("output_token_throughput", "Output Token Throughput", "tokens/sec", false, true, 1);
    public static final MetricSpec TOTAL_THROUGHPUT = new MetricSpec("total_token_throughput", "Total Token Throughput", "tokens/sec", false, true, 1);
    public static final MetricSpec REQUEST_COUNT = new MetricSpec("request_count", "Request Count", "requests", false, true, 1);
    public static final MetricSpec ERROR_COUNT = new MetricSpec("error_request_count", "Error Request Count", "requests", false, false, 1);
    public static final MetricSpec ERROR_RATE = new MetricSpec("request_error_rate", "Request Error Rate", "%", false, false, 1);
    public static final MetricSpec DURATION = new MetricSpec("benchmark_duration", "Benchmark Duration", "sec", false, false, 1);
    public static final MetricSpec GOOD_COUNT = new MetricSpec("good_request_count", "Good Request Count", "requests", false, true, 1);
    public static final MetricSpec GOODPUT = new MetricSpec("goodput", "Goodput", "requests/sec", false, true, 1);

    public static final List<MetricSpec> ALL = List.of(REQUEST_LATENCY, TTFT, TTST, ITL, ICL, LATENCY_FROM_INTENDED,
            TTFT_FROM_INTENDED, OTPS_USER, ISL, OSL,
            OUTPUT_TOKENS, REASONING_TOKENS, REQUEST_THROUGHPUT, OUTPUT_THROUGHPUT, TOTAL_THROUGHPUT, REQUEST_COUNT,
            ERROR_COUNT, ERROR_RATE, DURATION, GOOD_COUNT, GOODPUT);

    private static final Map<String, MetricSpec> BY_TAG = new LinkedHashMap<>();

    static {
        ALL.forEach(m -> BY_TAG.put(m.tag(), m));
    }

    private MetricRegistry() {
    }

    /** The spec for {@code tag}, or null. */
    public static MetricSpec byTag(final String tag) {
        return BY_TAG.get(tag);
    }

    public static java.util.Set<String> tags() {
        return BY_TAG.keySet();
    }
}
