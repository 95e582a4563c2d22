package io.aiperf.engine.telemetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the servers' own metrics said during the profiling window (src-docs/server-metrics.md), as
 * {@code server_metrics_export.json} and {@code .csv} in upstream AIPerf 0.13's shapes ({@link ServerMetricsJson},
 * {@link ServerMetricsCsv}), plus {@code highlights} that read the same few facts (KV-cache usage, requests running
 * and waiting, prefix-cache hit rate) from vLLM's, SGLang's and llama.cpp's names. Immutable once built.
 */
public final class ServerMetrics {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** Known names of each highlight, by server. */
    private static final Map<String, List<String>> GAUGES = Map.of(
            "kv_cache_usage", List.of("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage",
                    "llamacpp:kv_cache_usage_ratio"),
            "requests_running", List.of("vllm:num_requests_running", "sglang:num_running_reqs",
                    "llamacpp:requests_processing"),
            "requests_waiting", List.of("vllm:num_requests_waiting", "sglang:num_queue_reqs",
                    "llamacpp:requests_deferred"),
            "gpu_utilization_pct", List.of("DCGM_FI_DEV_GPU_UTIL"),
            "gpu_memory_used_mib", List.of("DCGM_FI_DEV_FB_USED"),
            "gpu_power_w", List.of("DCGM_FI_DEV_POWER_USAGE"));
    /** Highlights that are a share or a percentage: averaged over their series (GPUs), not summed. */
    private static final java.util.Set<String> AVERAGED = java.util.Set.of("kv_cache_usage", "gpu_utilization_pct");

    private final List<ServerMetricsCollector.Target> targets;
    private final long startEpochNanos;
    private final long endEpochNanos;

    /** The endpoints scraped, with what each gave. */
    List<ServerMetricsCollector.Target> targets() {
        return targets;
    }

    ServerMetrics(final List<ServerMetricsCollector.Target> targets, final long startEpochNanos,
                  final long endEpochNanos) {
        this.targets = targets;
        this.startEpochNanos = startEpochNanos;
        this.endEpochNanos = endEpochNanos;
    }

    /** Whether any endpoint answered at least one scrape (otherwise nothing is written). */
    public boolean anyAnswered() {
        return targets.stream().anyMatch(t -> t.scrapes > 0);
    }

    /** Endpoints that never answered, with the reason, for the console. */
    public Map<String, String> unanswered() {
        return targets.stream().filter(t -> t.scrapes == 0).collect(Collectors.toMap(t -> t.shown(),
                t -> t.lastError == null ? "no answer" : t.lastError, (a, b) -> a, LinkedHashMap::new));
    }

    /**
     * What the export says of the run itself: the version that wrote it, the run's id and its config echo (secrets
     * already redacted).
     */
    public record About(String version, String benchmarkId, ObjectNode inputConfig) {
    }

    /** {@code server_metrics_export.json}: upstream 0.13's shape, plus our {@code highlights}. */
    public byte[] json(final About about) {
        final ObjectNode root = ServerMetricsJson.write(targets, ExportedMetrics.of(targets).values(),
                startEpochNanos, endEpochNanos, about);
        final ObjectNode highlights = root.putObject("highlights");
        highlights().forEach((k, v) -> putNumber(highlights, k, v));
        try {
            return JSON.writeValueAsBytes(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** {@code server_metrics_export.csv}: upstream 0.13's layout, a section per metric type. */
    public byte[] csv(final About about) {
        return ServerMetricsCsv.write(ExportedMetrics.of(targets).values(), about.version(), about.benchmarkId())
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The facts a release manager looks for, whichever server: KV-cache usage (fraction, mean and max of the
     * series found), requests running and waiting (mean and max, summed over series), and the prefix-cache hit rate
     * (hits over queries during the window, or the server's own rate gauge).
     */
    public Map<String, Double> highlights() {
        final Map<String, Double> out = new LinkedHashMap<>();
        for (final Map.Entry<String, List<String>> h : new java.util.TreeMap<>(GAUGES).entrySet()) {
            double avg = 0;
            double max = 0;
            int found = 0;
            for (final ServerMetricsCollector.Target t : targets) {
                for (final Series s : t.series.values()) {
                    if (h.getValue().contains(s.name) && s.count() > 0) {
                        avg += s.mean();
                        max += s.max();
                        found++;
                    }
                }
            }
            if (found > 0) {
                final boolean share = AVERAGED.contains(h.getKey());
                out.put(h.getKey() + "_avg", share ? avg / found : avg);
                out.put(h.getKey() + "_max", share ? max / found : max);
            }
        }
        double hits = 0;
        double queries = 0;
        for (final ServerMetricsCollector.Target t : targets) {
            for (final Series s : t.series.values()) {
                if (s.name.equals("vllm:prefix_cache_hits_total")) {
                    hits += s.delta();
                } else if (s.name.equals("vllm:prefix_cache_queries_total")) {
                    queries += s.delta();
                } else if (s.name.equals("sglang:cache_hit_rate") && s.count() > 0) {
                    out.put("prefix_cache_hit_rate", s.mean());
                }
            }
        }
        if (queries > 0) {
            out.put("prefix_cache_hit_rate", hits / queries);
        }
        return out;
    }

    private static void putNumber(final ObjectNode node, final String key, final double v) {
        if (Double.isFinite(v)) {
            node.put(key, v);
        }
    }
}
