package io.aiperf.engine.mock;

import java.util.Locale;
import java.util.PriorityQueue;

/**
 * The mock's {@code GET /metrics} (src-docs/mock-server.md), in the Prometheus text format under vLLM's names, so
 * the engine's server-metrics scraper has series that move with the load: requests running (being served) and
 * waiting (for one of {@code --max-slots}), the slots, KV-cache usage (running over the slots, or a notional 64),
 * prompt and generation tokens, the prefix-cache
 * queries and hits of the mock's prefix-cache model, and a request latency histogram. Thread-safe.
 */
final class MockMetrics {
    private static final double[] BUCKETS = {0.01, 0.05, 0.1, 0.5, 1, 5, 30};
    private static final int KV_SLOTS = 64;

    private final PriorityQueue<Long> ends = new PriorityQueue<>();
    private final PriorityQueue<Long> starts = new PriorityQueue<>();
    private int maxSlots;
    private final long[] bucketCounts = new long[BUCKETS.length];
    private long requests;
    private double latencySum;
    private long promptTokens;
    private long generationTokens;

    /** A completion was planned with these token counts. */
    synchronized void tokens(final int prompt, final int generated) {
        promptTokens += prompt;
        generationTokens += generated;
    }

    /** The server's slots ({@code --max-slots}); 0 for unlimited. */
    synchronized void maxSlots(final int slots) {
        maxSlots = slots;
    }

    /**
     * An inference response was planned (monotonic nanos): it came in at {@code arrivalNanos}, is served from
     * {@code startNanos} (later when it waits for a slot) to {@code endNanos}.
     */
    synchronized void planned(final long arrivalNanos, final long startNanos, final long endNanos) {
        ends.add(endNanos);
        starts.add(startNanos);
        requests++;
        final double seconds = Math.max(0, endNanos - arrivalNanos) / 1e9;
        latencySum += seconds;
        for (int i = 0; i < BUCKETS.length; i++) {
            if (seconds <= BUCKETS[i]) {
                bucketCounts[i]++;
            }
        }
    }

    synchronized void clear() {
        ends.clear();
        starts.clear();
        java.util.Arrays.fill(bucketCounts, 0);
        requests = 0;
        latencySum = 0;
        promptTokens = 0;
        generationTokens = 0;
    }

    /** The exposition text at {@code nowNanos}, with the prefix-cache counters of the ledger. */
    synchronized String render(final long nowNanos, final long prefixQueries, final long prefixHits) {
        while (!ends.isEmpty() && ends.peek() <= nowNanos) {
            ends.poll();
        }
        while (!starts.isEmpty() && starts.peek() <= nowNanos) {
            starts.poll();
        }
        final int waiting = starts.size();
        final int running = ends.size() - waiting;
        final String model = "{model_name=\"mock-model\"}";
        final StringBuilder sb = new StringBuilder(2048);
        family(sb, "vllm:num_requests_running", "gauge", "Requests being answered.").append(model).append(' ')
                .append(running).append('\n');
        family(sb, "vllm:num_requests_waiting", "gauge", "Requests waiting for a slot (--max-slots).").append(model)
                .append(' ').append(waiting).append('\n');
        family(sb, "aiperf_mock:max_slots", "gauge", "Requests served at once (0 = unlimited).").append(model)
                .append(' ').append(maxSlots).append('\n');
        family(sb, "vllm:kv_cache_usage_perc", "gauge", "Share of the KV cache in use (running over the slots).")
                .append(model).append(' ')
                .append(num(Math.min(1.0, running / (double) (maxSlots > 0 ? maxSlots : KV_SLOTS)))).append('\n');
        family(sb, "vllm:prompt_tokens_total", "counter", "Prompt tokens seen (characters / 4).").append(model)
                .append(' ').append(promptTokens).append('\n');
        family(sb, "vllm:generation_tokens_total", "counter", "Tokens generated.").append(model).append(' ')
                .append(generationTokens).append('\n');
        family(sb, "vllm:request_success_total", "counter", "Requests answered.").append(model).append(' ')
                .append(requests).append('\n');
        family(sb, "vllm:prefix_cache_queries_total", "counter", "Prompt blocks looked up in the prefix cache.")
                .append(model).append(' ').append(prefixQueries).append('\n');
        family(sb, "vllm:prefix_cache_hits_total", "counter", "Prompt blocks found in the prefix cache.")
                .append(model).append(' ').append(prefixHits).append('\n');
        family(sb, "vllm:e2e_request_latency_seconds", "histogram", "Planned request latency.");
        for (int i = 0; i < BUCKETS.length; i++) {
            sb.append("vllm:e2e_request_latency_seconds_bucket{le=\"").append(num(BUCKETS[i]))
                    .append("\",model_name=\"mock-model\"} ").append(bucketCounts[i]).append('\n');
        }
        sb.append("vllm:e2e_request_latency_seconds_bucket{le=\"+Inf\",model_name=\"mock-model\"} ").append(requests)
                .append('\n');
        sb.append("vllm:e2e_request_latency_seconds_sum").append(model).append(' ').append(num(latencySum))
                .append('\n');
        sb.append("vllm:e2e_request_latency_seconds_count").append(model).append(' ').append(requests).append('\n');
        // One notional GPU in DCGM exporter's names, busy with the requests running (for --gpu-telemetry tests).
        final String gpu = "{gpu=\"0\",UUID=\"GPU-aiperf-java-mock\",modelName=\"aiperf-java mock GPU\"}";
        family(sb, "DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (%).").append(gpu).append(' ')
                .append(Math.min(100, 25 * running)).append('\n');
        family(sb, "DCGM_FI_DEV_FB_USED", "gauge", "Frame buffer memory used (MiB).").append(gpu).append(' ')
                .append(1024 + 128 * running).append('\n');
        family(sb, "DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (W).").append(gpu).append(' ')
                .append(num(60 + 20.0 * Math.min(4, running))).append('\n');
        return sb.toString();
    }

    private static StringBuilder family(final StringBuilder sb, final String name, final String type,
                                        final String help) {
        return sb.append("# HELP ").append(name).append(' ').append(help).append('\n').append("# TYPE ").append(name)
                .append(' ').append(type).append('\n').append(type.equals("histogram") ? "" : name);
    }

    private static String num(final double v) {
        return String.format(Locale.ROOT, "%s", v);
    }
}
