package io.aiperf.engine.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

/**
 * The metric catalogue (AIPerf's metrics reference), in export order: each metric defined once, with how to read it
 * from a record. Run-level values (counts, totals, throughputs) are computed by {@link MetricsAccumulator}.
 */
public final class MetricRegistry {
    private static final double NS_TO_MS = 1e6;

    public static final MetricSpec REQUEST_LATENCY = MetricSpec.record("request_latency", "Request Latency", "ms", false, NS_TO_MS, RecordMetrics::latencyNanos, true, true);
    public static final MetricSpec TTFT = MetricSpec.record("time_to_first_token", "Time to First Token", "ms", false, NS_TO_MS, RecordMetrics::ttftNanos, true, true);
    public static final MetricSpec TTST = MetricSpec.record("time_to_second_token", "Time to Second Token", "ms", false, NS_TO_MS, RecordMetrics::ttstNanos, true, true);
    public static final MetricSpec TTFO = MetricSpec.record("time_to_first_output_token", "Time to First Output Token", "ms", false, NS_TO_MS, RecordMetrics::ttfoNanos, true, true);
    public static final MetricSpec ITL = MetricSpec.record("inter_token_latency", "Inter Token Latency", "ms", false, NS_TO_MS, RecordMetrics::itlNanos, true, true);
    /** A list per request (the gaps between chunks); its values are folded by the accumulator itself. */
    public static final MetricSpec ICL = new MetricSpec("inter_chunk_latency", "Inter Chunk Latency", "ms", true, false, NS_TO_MS, null, false, true);
    public static final MetricSpec DECODE_DURATION = MetricSpec.record("decode_duration", "Decode Duration", "ms", false, NS_TO_MS, m -> m.latencyNanos() - m.ttftNanos(), true, false);
    /** Open loop only, next to AIPerf's: latencies from the schedule's intended start (no coordinated omission). */
    public static final MetricSpec LATENCY_FROM_INTENDED = MetricSpec.record("request_latency_from_intended", "Request Latency (from intended start)", "ms", false, NS_TO_MS, RecordMetrics::latencyFromIntendedNanos, false, true);
    public static final MetricSpec TTFT_FROM_INTENDED = MetricSpec.record("time_to_first_token_from_intended", "Time to First Token (from intended start)", "ms", false, NS_TO_MS, RecordMetrics::ttftFromIntendedNanos, false, true);
    public static final MetricSpec OTPS_USER = MetricSpec.record("output_token_throughput_per_user", "Output Token Throughput Per User", "tokens/sec/user", true, 1, RecordMetrics::outputTokensPerSecondPerUser, true, true);
    public static final MetricSpec PREFILL_USER = MetricSpec.record("prefill_throughput_per_user", "Prefill Throughput Per User", "tokens/sec/user", true, 1, m -> m.isl() < 0 || !(m.ttftNanos() > 0) ? Double.NaN : m.isl() / (m.ttftNanos() / 1e9), true, false);
    public static final MetricSpec E2E_OUTPUT = MetricSpec.record("e2e_output_token_throughput", "E2E Output Token Throughput", "tokens/sec/user", true, 1, m -> m.osl() < 0 || !(m.latencyNanos() > 0) ? Double.NaN : m.osl() / (m.latencyNanos() / 1e9), true, false);
    public static final MetricSpec ISL = MetricSpec.record("input_sequence_length", "Input Sequence Length", "tokens", true, 1, tokens(RecordMetrics::isl), true, true);
    public static final MetricSpec OSL = MetricSpec.record("output_sequence_length", "Output Sequence Length", "tokens", true, 1, tokens(RecordMetrics::osl), true, true);
    public static final MetricSpec OUTPUT_TOKENS = MetricSpec.record("output_token_count", "Output Token Count", "tokens", true, 1, tokens(RecordMetrics::outputTokens), false, true);
    public static final MetricSpec REASONING_TOKENS = MetricSpec.record("reasoning_token_count", "Reasoning Token Count", "tokens", true, 1, tokens(RecordMetrics::reasoningTokens), false, true);
    public static final MetricSpec USAGE_PROMPT = MetricSpec.record("usage_prompt_tokens", "Usage Prompt Tokens", "tokens", true, 1, tokens(RecordMetrics::usagePromptTokens), false, false);
    public static final MetricSpec USAGE_COMPLETION = MetricSpec.record("usage_completion_tokens", "Usage Completion Tokens", "tokens", true, 1, tokens(RecordMetrics::serverOutputTokens), false, false);
    public static final MetricSpec USAGE_TOTAL = MetricSpec.record("usage_total_tokens", "Usage Total Tokens", "tokens", true, 1, tokens(RecordMetrics::usageTotalTokens), false, false);
    /** Upstream 0.13's prompt-cache reads: per request, their sum, and the sum's share of the prompt tokens. */
    public static final MetricSpec USAGE_PROMPT_CACHE_READ = MetricSpec.record("usage_prompt_cache_read_tokens", "Usage Prompt Cache Read Tokens", "tokens", true, 1, tokens(RecordMetrics::usageCacheReadTokens), false, false);
    public static final MetricSpec TOTAL_USAGE_PROMPT_CACHE_READ = hidden("total_usage_prompt_cache_read_tokens", "Total Usage Prompt Cache Read Tokens", "tokens", true);
    public static final MetricSpec OVERALL_USAGE_PROMPT_CACHE_READ_PCT = hidden("overall_usage_prompt_cache_read_pct", "Overall Usage Prompt Cache Read %", "%", true);
    public static final MetricSpec USAGE_REASONING = MetricSpec.record("usage_reasoning_tokens", "Usage Reasoning Tokens", "tokens", true, 1, tokens(RecordMetrics::usageReasoningTokens), false, false);
    public static final MetricSpec USAGE_PROMPT_DIFF = MetricSpec.record("usage_prompt_tokens_diff_pct", "Usage Prompt Diff %", "%", false, 1, m -> diffPct(m.usagePromptTokens(), m.clientInputTokens()), false, false);
    public static final MetricSpec USAGE_COMPLETION_DIFF = MetricSpec.record("usage_completion_tokens_diff_pct", "Usage Completion Diff %", "%", false, 1, m -> diffPct(m.serverOutputTokens(), m.clientOutputTokens()), false, false);
    /** Server against client reasoning tokens, when the client counted the reasoning text itself. */
    public static final MetricSpec USAGE_REASONING_DIFF = MetricSpec.record("usage_reasoning_tokens_diff_pct", "Usage Reasoning Diff %", "%", false, 1, m -> m.clientOutputTokens() < 0 ? Double.NaN : diffPct(m.usageReasoningTokens(), m.reasoningTokens()), false, false);
    /** Upstream 0.13's signed difference of the output from the length asked for, percent of the latter. */
    public static final MetricSpec OSL_MISMATCH_DIFF = MetricSpec.record("osl_mismatch_diff_pct", "OSL Mismatch Diff %", "%", false, 1, m -> m.requestedOsl() > 0 && m.osl() >= 0 ? (m.osl() - m.requestedOsl()) * 100.0 / m.requestedOsl() : Double.NaN, false, false);
    public static final MetricSpec NUM_IMAGES = MetricSpec.record("num_images", "Number of Images", "images", true, 1, RecordMetrics::imagesOrNaN, false, true);
    public static final MetricSpec IMAGE_THROUGHPUT = MetricSpec.record("image_throughput", "Image Throughput", "images/sec", true, 1, m -> m.imagesOrNaN() / (m.latencyNanos() / 1e9), false, true);
    public static final MetricSpec IMAGE_LATENCY = MetricSpec.record("image_latency", "Image Latency", "ms/image", false, 1, m -> m.latencyNanos() / 1e6 / m.imagesOrNaN(), false, true);
    /** Input tokens of the requests that failed (a distribution over failed requests only). */
    public static final MetricSpec ERROR_ISL = new MetricSpec("error_isl", "Error Input Sequence Length", "tokens", true, false, 1, null, false, false);
    /**
     * Upstream 0.13's queue metrics over every request, failed ones too: credit to start, and credit to end (its
     * coordinated-omission-aware latency). Summary only; the records carry the stamps they derive from.
     */
    public static final MetricSpec CREDIT_TO_START = new MetricSpec("credit_to_start_latency", "Credit-to-Start Latency", "ms", true, false, NS_TO_MS, null, false, false);
    public static final MetricSpec EFFECTIVE_LATENCY = new MetricSpec("effective_latency", "Effective Latency (CO-aware)", "ms", true, false, NS_TO_MS, null, false, false);
    public static final MetricSpec REQUEST_THROUGHPUT = MetricSpec.scalar("request_throughput", "Request Throughput", "requests/sec", true);
    public static final MetricSpec OUTPUT_THROUGHPUT = MetricSpec.scalar("output_token_throughput", "Output Token Throughput", "tokens/sec", true);
    public static final MetricSpec INPUT_THROUGHPUT = hidden("input_token_throughput", "Input Token Throughput", "tokens/sec", true);
    public static final MetricSpec TOTAL_THROUGHPUT = MetricSpec.scalar("total_token_throughput", "Total Token Throughput", "tokens/sec", true);
    public static final MetricSpec REQUEST_COUNT = MetricSpec.scalar("request_count", "Request Count", "requests", true);
    public static final MetricSpec ERROR_COUNT = MetricSpec.scalar("error_request_count", "Error Request Count", "requests", false);
    public static final MetricSpec ERROR_RATE = MetricSpec.scalar("request_error_rate", "Request Error Rate", "%", false);
    /** Successful plus failed requests (upstream AIPerf 0.13's {@code completed_request_count}). */
    public static final MetricSpec COMPLETED_COUNT = hidden("completed_request_count",
            "Completed Requests (Success + Error)", "requests", true);
    public static final MetricSpec DURATION = MetricSpec.scalar("benchmark_duration", "Benchmark Duration", "sec", false);
    public static final MetricSpec TOTAL_ISL = hidden("total_isl", "Total Input Sequence Length", "tokens", true);
    public static final MetricSpec TOTAL_OSL = hidden("total_osl", "Total Output Sequence Length", "tokens", true);
    public static final MetricSpec TOTAL_OUTPUT_TOKENS = hidden("total_output_tokens", "Total Output Tokens", "tokens", true);
    public static final MetricSpec TOTAL_REASONING_TOKENS = hidden("total_reasoning_tokens", "Total Reasoning Tokens", "tokens", true);
    public static final MetricSpec TOTAL_ERROR_ISL = hidden("total_error_isl", "Total Error Input Sequence Length", "tokens", false);
    public static final MetricSpec TOTAL_USAGE_PROMPT = hidden("total_usage_prompt_tokens", "Total Usage Prompt Tokens", "tokens", true);
    public static final MetricSpec TOTAL_USAGE_COMPLETION = hidden("total_usage_completion_tokens", "Total Usage Completion Tokens", "tokens", true);
    public static final MetricSpec TOTAL_USAGE_TOTAL = hidden("total_usage_total_tokens", "Total Usage Total Tokens", "tokens", true);
    /** Requests whose server prompt count differs from the client's by more than 10% (upstream's default threshold). */
    public static final MetricSpec USAGE_DISCREPANCY = hidden("usage_discrepancy_count", "Usage Discrepancy Count", "requests", false);
    /**
     * Requests whose output differs from the length asked for by more than min(5% of it, 50 tokens) (upstream 0.13's
     * {@code osl_mismatch_count}, its default thresholds).
     */
    public static final MetricSpec OSL_MISMATCH_COUNT = hidden("osl_mismatch_count", "OSL Mismatch Count", "requests", false);
    public static final MetricSpec GOOD_COUNT = MetricSpec.scalar("good_request_count", "Good Request Count", "requests", true);
    /** Upstream 0.13's share of the attempted requests (failed ones included) that met every SLO. */
    public static final MetricSpec GOOD_FRACTION = hidden("good_request_fraction", "GoodRequestFraction", "ratio", true);
    public static final MetricSpec GOODPUT = MetricSpec.scalar("goodput", "Goodput", "requests/sec", true);

    /*
     * Upstream 0.13's sweep-line metrics (SweepLine): time-weighted over the run's window, their statistics the
     * average, extremes, p50, p90, p95, p99 and deviation. Upstream's order.
     */
    public static final MetricSpec EFFECTIVE_CONCURRENCY = sweep("effective_concurrency", "Effective Concurrency", "requests");
    public static final MetricSpec EFFECTIVE_DECODE_THROUGHPUT = sweep("effective_decode_throughput", "Effective Decode Throughput", "tokens/sec");
    public static final MetricSpec EFFECTIVE_PREFILL_THROUGHPUT = sweep("effective_prefill_throughput", "Effective Prefill Throughput", "tokens/sec");
    public static final MetricSpec EFFECTIVE_DECODE_CONCURRENCY = sweep("effective_decode_concurrency", "Effective Decode Concurrency", "requests");
    public static final MetricSpec EFFECTIVE_PREFILL_CONCURRENCY = sweep("effective_prefill_concurrency", "Effective Prefill Concurrency", "requests");
    public static final MetricSpec EFFECTIVE_TOTAL_THROUGHPUT = sweep("effective_total_throughput", "Effective Total Throughput", "tokens/sec");
    public static final MetricSpec EFFECTIVE_DECODE_PER_USER = sweep("effective_decode_throughput_per_user", "Effective Decode Throughput Per User", "tokens/sec/user");
    public static final MetricSpec EFFECTIVE_PREFILL_PER_USER = sweep("effective_prefill_throughput_per_user", "Effective Prefill Throughput Per User", "tokens/sec/user");
    public static final MetricSpec TOKENS_IN_FLIGHT = sweep("tokens_in_flight", "Tokens In Flight", "tokens");
    public static final MetricSpec ACTIVE_DECODE_THROUGHPUT = sweep("active_decode_throughput", "Active Decode Throughput", "tokens/sec");
    public static final MetricSpec ACTIVE_PREFILL_THROUGHPUT = sweep("active_prefill_throughput", "Active Prefill Throughput", "tokens/sec");
    public static final MetricSpec ACTIVE_DECODE_PER_USER = sweep("active_decode_throughput_per_user", "Active Decode Throughput Per User", "tokens/sec/user");
    public static final MetricSpec ACTIVE_PREFILL_PER_USER = sweep("active_prefill_throughput_per_user", "Active Prefill Throughput Per User", "tokens/sec/user");
    public static final MetricSpec ACTIVE_TOTAL_THROUGHPUT = sweep("active_total_throughput", "Active Total Throughput", "tokens/sec");

    public static final List<MetricSpec> SWEEP_LINE = List.of(EFFECTIVE_CONCURRENCY, EFFECTIVE_DECODE_THROUGHPUT,
            EFFECTIVE_PREFILL_THROUGHPUT, EFFECTIVE_DECODE_CONCURRENCY, EFFECTIVE_PREFILL_CONCURRENCY,
            EFFECTIVE_TOTAL_THROUGHPUT, EFFECTIVE_DECODE_PER_USER, EFFECTIVE_PREFILL_PER_USER, TOKENS_IN_FLIGHT,
            ACTIVE_DECODE_THROUGHPUT, ACTIVE_PREFILL_THROUGHPUT, ACTIVE_DECODE_PER_USER, ACTIVE_PREFILL_PER_USER,
            ACTIVE_TOTAL_THROUGHPUT);

    private static final List<MetricSpec> CORE = List.of(REQUEST_LATENCY, TTFT, TTST, TTFO, ITL, ICL, DECODE_DURATION,
            LATENCY_FROM_INTENDED, TTFT_FROM_INTENDED, OTPS_USER, PREFILL_USER, E2E_OUTPUT, ISL, OSL, OUTPUT_TOKENS,
            REASONING_TOKENS, USAGE_PROMPT, USAGE_PROMPT_CACHE_READ, USAGE_COMPLETION, USAGE_TOTAL, USAGE_REASONING,
            USAGE_PROMPT_DIFF, USAGE_COMPLETION_DIFF, USAGE_REASONING_DIFF, OSL_MISMATCH_DIFF, NUM_IMAGES, IMAGE_THROUGHPUT, IMAGE_LATENCY, ERROR_ISL, CREDIT_TO_START, EFFECTIVE_LATENCY, REQUEST_THROUGHPUT, OUTPUT_THROUGHPUT, INPUT_THROUGHPUT,
            TOTAL_THROUGHPUT, REQUEST_COUNT, ERROR_COUNT, ERROR_RATE, COMPLETED_COUNT, DURATION, TOTAL_ISL, TOTAL_OSL,
            TOTAL_OUTPUT_TOKENS, TOTAL_REASONING_TOKENS, TOTAL_ERROR_ISL, TOTAL_USAGE_PROMPT,
            TOTAL_USAGE_PROMPT_CACHE_READ, OVERALL_USAGE_PROMPT_CACHE_READ_PCT, TOTAL_USAGE_COMPLETION,
            TOTAL_USAGE_TOTAL, USAGE_DISCREPANCY, OSL_MISMATCH_COUNT, GOOD_COUNT, GOOD_FRACTION, GOODPUT);

    /** Every metric, in export order: the core ones, then the groups defined in classes of their own. */
    public static final List<MetricSpec> ALL = java.util.stream.Stream.of(CORE,
            HttpTraceMetrics.ALL, SWEEP_LINE, ReplayScheduleLag.ALL).flatMap(List::stream).toList();

    /** The metrics whose statistics are also given error-adjusted ({@code adj_*}, AIPerf's metrics reference). */
    public static final java.util.Set<MetricSpec> ERROR_ADJUSTED = java.util.Set.of(REQUEST_LATENCY, TTFT, ITL,
            DECODE_DURATION);

    /** The per-request metrics read with {@link MetricSpec#perRecord()}, in export order. */
    public static final List<MetricSpec> PER_RECORD = ALL.stream().filter(m -> m.perRecord() != null).toList();

    private static final Map<String, MetricSpec> BY_TAG = new LinkedHashMap<>();

    static {
        ALL.forEach(m -> BY_TAG.put(m.tag(), m));
    }

    private MetricRegistry() {
    }

    private static MetricSpec hidden(final String tag, final String header, final String unit, final boolean larger) {
        return new MetricSpec(tag, header, unit, false, larger, 1, null, false, false);
    }

    /** A sweep-line metric: statistics, not on the console, no SLO. */
    private static MetricSpec sweep(final String tag, final String header, final String unit) {
        return new MetricSpec(tag, header, unit, true, !unit.equals("tokens"), 1, null, false, false);
    }

    private static java.util.function.ToDoubleFunction<RecordMetrics> tokens(final ToIntFunction<RecordMetrics> f) {
        return m -> {
            final int v = f.applyAsInt(m);
            return v < 0 ? Double.NaN : v;
        };
    }

    /** Upstream's usage discrepancy threshold, percent ({@code AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD}'s default). */
    public static final double USAGE_DIFF_THRESHOLD_PCT = 10.0;
    /** Upstream's OSL mismatch thresholds ({@code AIPERF_METRICS_OSL_MISMATCH_*}'s defaults): percent, and tokens. */
    public static final double OSL_MISMATCH_PCT = 5.0;
    public static final int OSL_MISMATCH_MAX_TOKENS = 50;

    /** Whether an output of {@code osl} tokens misses the {@code requested} length by more than upstream allows. */
    public static boolean oslMismatch(final int requested, final int osl) {
        return Math.abs(osl - requested) > Math.min(requested * OSL_MISMATCH_PCT / 100.0, OSL_MISMATCH_MAX_TOKENS);
    }

    /** {@code |server - client| / client} in percent, when both counted. */
    static double diffPct(final int server, final int client) {
        return server < 0 || client <= 0 ? Double.NaN : Math.abs(server - client) * 100.0 / client;
    }

    /** The spec for {@code tag}, or null. */
    public static MetricSpec byTag(final String tag) {
        return BY_TAG.get(tag);
    }

    public static Set<String> tags() {
        return BY_TAG.keySet();
    }

    /** The metrics a goodput SLO may name, with whether larger is better. */
    public static Map<String, Boolean> sloDirections() {
        return ALL.stream().filter(MetricSpec::slo)
                .collect(Collectors.toMap(MetricSpec::tag, MetricSpec::largerIsBetter, (a, b) -> a, LinkedHashMap::new));
    }
}
