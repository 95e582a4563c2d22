package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.metrics.ErrorSummaryEntry;
import io.aiperf.engine.metrics.MetricValue;
import io.aiperf.engine.metrics.MetricsSummary;
import io.aiperf.engine.metrics.Stats;
import java.time.Instant;
import java.util.Map;

/**
 * {@code profile_export_aiperf.json}, schema 1.5 (AIPerf's export docs): metadata, one object per metric
 * ({@code unit, avg, p1..p99, min, max, std, count, sum}; single values only {@code unit, avg}), then
 * input_config, run_info, was_cancelled, error_summary, warmup_metrics.
 */
public final class SummaryJsonWriter {
    public static final String SCHEMA_VERSION = "1.5";
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SummaryJsonWriter() {
    }

    public static ObjectNode toJson(final RunReport r) {
        final ObjectNode root = JSON.createObjectNode();
        root.put("schema_version", SCHEMA_VERSION);
        root.put("aiperf_version", r.version());
        root.put("benchmark_id", r.benchmarkId());
        metrics(root, r.profiling());
        // As upstream writes it: no empty telemetry_data (no GPU telemetry here), no null run_info fields.
        root.set("input_config", r.inputConfig());
        final ObjectNode info = root.putObject("run_info");
        info.put("benchmark_id", r.benchmarkId());
        if (r.randomSeed() != null) {
            info.put("random_seed", r.randomSeed());
        }
        info.put("trial", 0);
        info.put("run_label", "run_0001");
        info.put("variation_label", "base");
        info.put("variation_index", 0);
        info.putObject("variation_values");
        info.put("cli_command", r.cliCommand());
        root.put("was_cancelled", r.wasCancelled());
        root.set("error_summary", errors(r.profiling()));
        if (r.warmup() != null) {
            metrics(root.putObject("warmup_metrics"), r.warmup());
        }
        root.put("start_time", Instant.ofEpochSecond(0, r.startEpochNanos()).toString());
        final ObjectNode health = root.putObject("client_health");
        health.put("max_schedule_lag_ms", r.health().maxScheduleLagMillis());
        health.put("client_cpu_seconds", r.health().clientCpuSeconds());
        health.put("wakeup_delay_p99_ms", r.health().wakeupDelayP99Millis());
        health.put("abandoned_requests", r.health().abandonedRequests());
        health.put("record_queue_waits", r.health().recordQueueWaits());
        final java.util.List<String> limitedBy = r.health().limitedBy();
        health.put("client_limited", !limitedBy.isEmpty());
        final com.fasterxml.jackson.databind.node.ArrayNode by = health.putArray("client_limited_by");
        limitedBy.forEach(by::add);
        if (!r.health().openLoop().isEmpty()) {
            final ObjectNode loops = health.putObject("open_loop");
            r.health().openLoop().forEach((name, h) -> loops.putObject(name)
                    .put("target_rate", h.targetRate()).put("schedule_rate", h.scheduleRate())
                    .put("achieved_rate", h.achievedRate())
                    .put("scheduled", h.scheduled()).put("sent", h.sent()).put("late_sends", h.late()).put("missed_arrivals", h.missed())
                    .put("ceiling_waits", h.ceilingWaits()).put("schedule_lag_p50_ms", h.lagP50Millis())
                    .put("schedule_lag_p99_ms", h.lagP99Millis()).put("schedule_lag_max_ms", h.lagMaxMillis())
                    .put("client_limited", h.clientLimited()));
        }
        final io.aiperf.engine.record.TransportHealth t = r.health().transport();
        health.putObject("transport").put("requests", t.requests())
                .put("pool_wait_p50_ms", t.poolWaitP50Millis()).put("pool_wait_p99_ms", t.poolWaitP99Millis())
                .put("pool_wait_max_ms", t.poolWaitMaxMillis()).put("connects", t.connects())
                .put("connect_max_ms", t.connectMaxMillis()).put("retries", t.retries())
                .put("malformed_chunks", t.malformedChunks()).put("redirects", t.redirects())
                .put("server_closes_after_response", t.serverClosesAfterResponse())
                .put("connects_opened", t.connectsOpened());
        tokenAccounting(root, r.profiling().tokens());
        environment(root, r.environment());
        // Judged from the summary itself, the same way the gate judges it (src-docs/validity.md).
        validity(root);
        root.put("end_time", Instant.ofEpochSecond(0, r.endEpochNanos()).toString());
        return root;
    }

    static void metrics(final ObjectNode into, final MetricsSummary summary) {
        for (final Map.Entry<String, MetricValue> e : summary.metrics().entrySet()) {
            final MetricValue m = e.getValue();
            final ObjectNode o = into.putObject(e.getKey());
            o.put("unit", m.spec().unit());
            if (m.stats() == null) {
                putNumber(o, "avg", m.value());
                continue;
            }
            final Stats s = m.stats();
            putNumber(o, "avg", s.avg());
            for (final double p : Stats.PERCENTILES) {
                final String name = "p" + (int) p;
                putNumber(o, name, s.get(name));
            }
            putNumber(o, "min", s.min());
            putNumber(o, "max", s.max());
            putNumber(o, "std", s.std());
            o.put("count", s.count());
            putNumber(o, "sum", s.sum());
            m.adjusted().forEach((name, v) -> putNumber(o, name, v)); // request latency, TTFT, ITL, decode duration
        }
    }

    /**
     * Replaces the metrics, the error summary, the token accounting and the validity of a summary with those of
     * {@code summary} (merging shards of a cell: the records are pooled, everything else stays the first shard's).
     */
    public static void replaceMetrics(final ObjectNode root, final MetricsSummary summary) {
        final java.util.List<String> old = new java.util.ArrayList<>();
        root.properties().forEach(e -> {
            if (e.getValue().isObject() && e.getValue().has("unit")) {
                old.add(e.getKey());
            }
        });
        root.remove(old);
        final ObjectNode fresh = JSON.createObjectNode();
        metrics(fresh, summary);
        // Metrics first, as in a summary written by a run.
        final ObjectNode rest = root.deepCopy();
        root.removeAll();
        root.set("schema_version", rest.remove("schema_version"));
        root.set("aiperf_version", rest.remove("aiperf_version"));
        root.set("benchmark_id", rest.remove("benchmark_id"));
        root.setAll(fresh);
        root.setAll(rest);
        root.set("error_summary", errors(summary));
        tokenAccounting(root, summary.tokens());
        validity(root);
    }

    /**
     * The {@code validity} block, and upstream's {@code runtime_submission_invalid_reasons}, empty: upstream fills it
     * with its submission rules' codes, which this engine does not run, and tools that read it would take our own
     * validity checks for failed submissions; the {@code validity} block carries those.
     */
    private static void validity(final ObjectNode root) {
        root.set("validity", io.aiperf.engine.validity.Validity.json(io.aiperf.engine.validity.Validity.evaluate(root,
                io.aiperf.engine.validity.Thresholds.defaults())));
        root.putArray("runtime_submission_invalid_reasons");
    }

    /** The sums the token validity checks read (src-docs/validity.md). */
    private static void tokenAccounting(final ObjectNode root, final MetricsSummary.TokenAccounting tokens) {
        root.putObject("token_accounting").put("compared_requests", tokens.comparedRequests())
                .put("client_output_tokens", tokens.clientOutputTokens())
                .put("server_output_tokens", tokens.serverOutputTokens())
                .put("osl_requests", tokens.oslRequests())
                .put("requested_output_tokens", tokens.requestedOutputTokens())
                .put("delivered_output_tokens", tokens.deliveredOutputTokens());
    }

    static void putNumber(final ObjectNode o, final String key, final double v) {
        if (Double.isFinite(v)) {
            o.put(key, v);
        }
    }

    static ArrayNode errors(final MetricsSummary summary) {
        final ArrayNode arr = JSON.createArrayNode();
        for (final ErrorSummaryEntry e : summary.errorSummary()) {
            final ObjectNode item = arr.addObject();
            final ObjectNode d = item.putObject("error_details");
            if (e.details().code() != null) {
                d.put("code", e.details().code());
            }
            d.put("type", e.details().type());
            d.put("message", e.details().message());
            item.put("count", e.count());
        }
        return arr;
    }

    private static void environment(final ObjectNode root, final io.aiperf.engine.record.Environment e) {
        final ObjectNode env = root.putObject("environment");
        env.putObject("engine").put("version", e.engineVersion()).put("commit", e.engineCommit());
        env.put("java", e.java());
        final ObjectNode host = env.putObject("client_host").put("cores", e.clientCores()).put("os", e.os());
        if (e.loadAverage() >= 0) {
            host.put("load_average", e.loadAverage());
        }
        final ObjectNode server = env.putObject("server");
        e.server().models().forEach(server.putArray("models")::add);
        server.put("server_header", e.server().serverHeader());
        server.put("version", e.server().version());
        e.server().buildInfo().forEach(server.putArray("build_info")::add);
        server.put("gpu", e.server().gpu());
        final io.aiperf.engine.record.Environment.Connection c = e.connection();
        env.putObject("connection").put("protocol", c.protocol()).put("tls_version", c.tlsVersion())
                .put("alpn", c.alpn()).put("proxy", c.proxy());
        env.put("model", e.model()).put("tokenizer", e.tokenizer());
        final io.aiperf.engine.record.Environment.TokenizerInfo t = e.tokenizerInfo();
        env.putObject("tokenizer_info").put("name", t.name()).put("revision", t.revision()).put("source", t.source())
                .put("vocab_size", t.vocabSize());
        env.put("config_hash", e.configHash());
        final ObjectNode fingerprint = env.putObject("fingerprint");
        e.fingerprint().forEach(fingerprint::put);
    }

    public static byte[] bytes(final RunReport r) {
        try {
            return JSON.writeValueAsBytes(toJson(r));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
