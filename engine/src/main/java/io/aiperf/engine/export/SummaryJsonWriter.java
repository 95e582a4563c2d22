package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.metrics.ErrorSummaryEntry;
import io.aiperf.engine.metrics.MetricValue;
import io.aiperf.engine.metrics.MetricsSummary;
import io.aiperf.engine.metrics.Stats;
import io.aiperf.engine.summary.SummaryCodec;
import io.aiperf.engine.validity.Thresholds;
import io.aiperf.engine.validity.Validity;
import java.time.Instant;
import java.util.Map;

/**
 * {@code profile_export_aiperf.json}, schema 1.5 (AIPerf's export docs): metadata, one object per metric
 * ({@code unit, avg, p1..p99, min, max, std, count, sum}; single values only {@code unit, avg}), then
 * input_config, run_info, was_cancelled, is_complete, error_summary, warmup_metrics.
 */
public final class SummaryJsonWriter {
    public static final String SCHEMA_VERSION = "1.5";
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SummaryJsonWriter() {
    }

    /** A summary as written, with the validity report its {@code validity} block was made from. */
    public record Written(ObjectNode json, Validity.Report validity) {
        public byte[] bytes() {
            try {
                return JSON.writeValueAsBytes(json);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * Upstream 0.13's {@code telemetry_data} of a run without GPU telemetry: no endpoints. With GPU telemetry asked
     * for, the samples are in gpu_telemetry_export.json and this block is left out (src-docs/migrating.md).
     */
    private static void emptyTelemetry(final ObjectNode t, final RunReport r) {
        final ObjectNode summary = t.putObject(SummaryCodec.TELEMETRY_SUMMARY);
        summary.putArray(SummaryCodec.ENDPOINTS_CONFIGURED);
        summary.putArray(SummaryCodec.ENDPOINTS_SUCCESSFUL);
        summary.put(SummaryCodec.START_TIME, Instant.ofEpochSecond(0, r.startEpochNanos()).toString());
        summary.put(SummaryCodec.END_TIME, Instant.ofEpochSecond(0, r.endEpochNanos()).toString());
        t.putObject(SummaryCodec.ENDPOINTS);
        t.putArray(SummaryCodec.ERROR_SUMMARY);
    }

    /** Whether the configuration echo turns GPU telemetry on ({@code input_config.gpu_telemetry.enabled}). */
    private static boolean gpuTelemetryAsked(final ObjectNode inputConfig) {
        return inputConfig != null && inputConfig.path("gpu_telemetry").path("enabled").asBoolean(false);
    }

    public static ObjectNode toJson(final RunReport r) {
        return write(r).json();
    }

    /** The summary of a cell, judged once: the file's validity block and the console's lines share the report. */
    public static Written write(final RunReport r) {
        final ObjectNode root = JSON.createObjectNode();
        root.put(SummaryCodec.SCHEMA_VERSION, SCHEMA_VERSION);
        root.put(SummaryCodec.AIPERF_VERSION, r.version());
        root.put(SummaryCodec.BENCHMARK_ID, r.benchmarkId());
        metrics(root, r.profiling());
        if (!gpuTelemetryAsked(r.inputConfig())) {
            emptyTelemetry(root.putObject(SummaryCodec.TELEMETRY_DATA), r);
        }
        // As upstream writes it: no null run_info fields.
        root.set(SummaryCodec.INPUT_CONFIG, r.inputConfig());
        final ObjectNode info = root.putObject(SummaryCodec.RUN_INFO);
        info.put(SummaryCodec.BENCHMARK_ID, r.benchmarkId());
        if (r.randomSeed() != null) {
            info.put(SummaryCodec.RANDOM_SEED, r.randomSeed());
        }
        info.put(SummaryCodec.TRIAL, 0);
        info.put(SummaryCodec.RUN_LABEL, "run_0001");
        info.put(SummaryCodec.VARIATION_LABEL, "base");
        info.put(SummaryCodec.VARIATION_INDEX, 0);
        info.putObject(SummaryCodec.VARIATION_VALUES);
        info.put(SummaryCodec.CLI_COMMAND, r.cliCommand());
        root.put(SummaryCodec.WAS_CANCELLED, r.wasCancelled());
        root.put(SummaryCodec.IS_COMPLETE, !r.wasCancelled());
        root.set(SummaryCodec.ERROR_SUMMARY, errors(r.profiling()));
        if (r.warmup() != null) {
            metrics(root.putObject(SummaryCodec.WARMUP_METRICS), r.warmup());
        }
        root.put(SummaryCodec.START_TIME, Instant.ofEpochSecond(0, r.startEpochNanos()).toString());
        final ObjectNode health = root.putObject(SummaryCodec.CLIENT_HEALTH);
        health.put(SummaryCodec.MAX_SCHEDULE_LAG_MS, r.health().maxScheduleLagMillis());
        health.put(SummaryCodec.CLIENT_CPU_SECONDS, r.health().clientCpuSeconds());
        health.put(SummaryCodec.WAKEUP_DELAY_P99_MS, r.health().wakeupDelayP99Millis());
        health.put(SummaryCodec.ABANDONED_REQUESTS, r.health().abandonedRequests());
        health.put(SummaryCodec.RECORD_QUEUE_WAITS, r.health().recordQueueWaits());
        final java.util.List<String> limitedBy = r.health().limitedBy();
        health.put(SummaryCodec.CLIENT_LIMITED, !limitedBy.isEmpty());
        final com.fasterxml.jackson.databind.node.ArrayNode by = health.putArray(SummaryCodec.CLIENT_LIMITED_BY);
        limitedBy.forEach(by::add);
        if (!r.health().openLoop().isEmpty()) {
            final ObjectNode loops = health.putObject(SummaryCodec.OPEN_LOOP);
            r.health().openLoop().forEach((name, h) -> loops.putObject(name)
                    .put(SummaryCodec.TARGET_RATE, h.targetRate()).put(SummaryCodec.SCHEDULE_RATE, h.scheduleRate())
                    .put(SummaryCodec.ACHIEVED_RATE, h.achievedRate())
                    .put(SummaryCodec.SCHEDULED, h.scheduled()).put(SummaryCodec.SENT, h.sent()).put(SummaryCodec.LATE_SENDS, h.late()).put(SummaryCodec.MISSED_ARRIVALS, h.missed())
                    .put(SummaryCodec.CEILING_WAITS, h.ceilingWaits()).put(SummaryCodec.SCHEDULE_LAG_P50_MS, h.lagP50Millis())
                    .put(SummaryCodec.SCHEDULE_LAG_P99_MS, h.lagP99Millis()).put(SummaryCodec.SCHEDULE_LAG_MAX_MS, h.lagMaxMillis())
                    .put(SummaryCodec.CLIENT_LIMITED, h.clientLimited()));
        }
        final io.aiperf.engine.record.TransportHealth t = r.health().transport();
        health.putObject(SummaryCodec.TRANSPORT).put(SummaryCodec.REQUESTS, t.requests())
                .put(SummaryCodec.POOL_WAIT_P50_MS, t.poolWaitP50Millis()).put(SummaryCodec.POOL_WAIT_P99_MS, t.poolWaitP99Millis())
                .put(SummaryCodec.POOL_WAIT_MAX_MS, t.poolWaitMaxMillis()).put(SummaryCodec.CONNECTS, t.connects())
                .put(SummaryCodec.CONNECT_MAX_MS, t.connectMaxMillis()).put(SummaryCodec.RETRIES, t.retries())
                .put(SummaryCodec.MALFORMED_CHUNKS, t.malformedChunks()).put(SummaryCodec.REDIRECTS, t.redirects())
                .put(SummaryCodec.SERVER_CLOSES_AFTER_RESPONSE, t.serverClosesAfterResponse())
                .put(SummaryCodec.CONNECTS_OPENED, t.connectsOpened());
        tokenAccounting(root, r.profiling().tokens());
        environment(root, r.environment());
        // Judged from the summary itself, the same way the gate judges it (src-docs/validity.md).
        final Validity.Report validity = validity(root);
        root.put(SummaryCodec.END_TIME, Instant.ofEpochSecond(0, r.endEpochNanos()).toString());
        return new Written(root, validity);
    }

    static void metrics(final ObjectNode into, final MetricsSummary summary) {
        for (final Map.Entry<String, MetricValue> e : summary.metrics().entrySet()) {
            final MetricValue m = e.getValue();
            final ObjectNode o = into.putObject(e.getKey());
            o.put(SummaryCodec.UNIT, m.spec().unit());
            if (m.stats() == null) {
                putNumber(o, SummaryCodec.AVG, m.value());
                continue;
            }
            final Stats s = m.stats();
            putNumber(o, SummaryCodec.AVG, s.avg());
            for (final double p : Stats.PERCENTILES) {
                final String name = "p" + (int) p;
                putNumber(o, name, s.get(name));
            }
            putNumber(o, SummaryCodec.MIN, s.min());
            putNumber(o, SummaryCodec.MAX, s.max());
            putNumber(o, SummaryCodec.STD, s.std());
            if (!s.isTimeWeighted()) { // a sweep-line metric has no count, sum or p1-p25, p75 (upstream 0.13)
                o.put(SummaryCodec.COUNT, s.count());
            }
            putNumber(o, SummaryCodec.SUM, s.sum());
            if (!m.adjusted().isEmpty()) { // request latency, TTFT, ITL, decode duration, when requests failed
                final ObjectNode adj = into.putObject(ADJUSTED_PREFIX + e.getKey());
                adj.put(SummaryCodec.UNIT, m.spec().unit());
                m.adjusted().forEach((name, v) -> putNumber(adj, name.substring(ADJUSTED_PREFIX.length()), v));
                adj.put(SummaryCodec.COUNT, s.count() + summary.errorCount());
            }
        }
    }

    /**
     * Upstream AIPerf 0.13's error-adjusted blocks, {@code adj_<tag>}: the finite statistics of the values with each
     * failed request as an infinitely slow one, written only when some request failed.
     */
    static final String ADJUSTED_PREFIX = "adj_";

    /**
     * Replaces the metrics, the error summary, the token accounting and the validity of a summary with those of
     * {@code summary} (merging shards of a cell: the records are pooled, everything else stays the first shard's).
     */
    public static void replaceMetrics(final ObjectNode root, final MetricsSummary summary) {
        final java.util.List<String> old = new java.util.ArrayList<>();
        root.properties().forEach(e -> {
            if (SummaryCodec.isMetric(e.getValue())) {
                old.add(e.getKey());
            }
        });
        root.remove(old);
        final ObjectNode fresh = JSON.createObjectNode();
        metrics(fresh, summary);
        // Metrics first, as in a summary written by a run.
        final ObjectNode rest = root.deepCopy();
        root.removeAll();
        root.set(SummaryCodec.SCHEMA_VERSION, rest.remove(SummaryCodec.SCHEMA_VERSION));
        root.set(SummaryCodec.AIPERF_VERSION, rest.remove(SummaryCodec.AIPERF_VERSION));
        root.set(SummaryCodec.BENCHMARK_ID, rest.remove(SummaryCodec.BENCHMARK_ID));
        root.setAll(fresh);
        root.setAll(rest);
        root.set(SummaryCodec.ERROR_SUMMARY, errors(summary));
        tokenAccounting(root, summary.tokens());
        validity(root);
    }

    /**
     * The {@code validity} block, and upstream's {@code runtime_submission_invalid_reasons}, empty: upstream fills it
     * with its submission rules' codes, which this engine does not run, and tools that read it would take our own
     * validity checks for failed submissions; the {@code validity} block carries those.
     */
    private static Validity.Report validity(final ObjectNode root) {
        final Validity.Report report = Validity.evaluate(root, Thresholds.defaults());
        root.set(SummaryCodec.VALIDITY, Validity.json(report));
        root.putArray(SummaryCodec.RUNTIME_SUBMISSION_INVALID_REASONS);
        return report;
    }

    /** The sums the token validity checks read (src-docs/validity.md). */
    private static void tokenAccounting(final ObjectNode root, final MetricsSummary.TokenAccounting tokens) {
        root.putObject(SummaryCodec.TOKEN_ACCOUNTING).put(SummaryCodec.COMPARED_REQUESTS, tokens.comparedRequests())
                .put(SummaryCodec.CLIENT_OUTPUT_TOKENS, tokens.clientOutputTokens())
                .put(SummaryCodec.SERVER_OUTPUT_TOKENS, tokens.serverOutputTokens())
                .put(SummaryCodec.OSL_REQUESTS, tokens.oslRequests())
                .put(SummaryCodec.REQUESTED_OUTPUT_TOKENS, tokens.requestedOutputTokens())
                .put(SummaryCodec.DELIVERED_OUTPUT_TOKENS, tokens.deliveredOutputTokens());
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
            final ObjectNode d = item.putObject(SummaryCodec.ERROR_DETAILS);
            if (e.details().code() != null) {
                d.put(SummaryCodec.CODE, e.details().code());
            }
            d.put(SummaryCodec.TYPE, e.details().type());
            d.put(SummaryCodec.MESSAGE, e.details().message());
            item.put(SummaryCodec.COUNT, e.count());
        }
        return arr;
    }

    private static void environment(final ObjectNode root, final io.aiperf.engine.record.Environment e) {
        final ObjectNode env = root.putObject(SummaryCodec.ENVIRONMENT);
        env.putObject(SummaryCodec.ENGINE).put(SummaryCodec.VERSION, e.engineVersion()).put(SummaryCodec.COMMIT, e.engineCommit());
        env.put(SummaryCodec.JAVA, e.java());
        final ObjectNode host = env.putObject(SummaryCodec.CLIENT_HOST).put(SummaryCodec.CORES, e.clientCores()).put(SummaryCodec.OS, e.os());
        if (e.loadAverage() >= 0) {
            host.put(SummaryCodec.LOAD_AVERAGE, e.loadAverage());
        }
        final ObjectNode server = env.putObject(SummaryCodec.SERVER);
        e.server().models().forEach(server.putArray(SummaryCodec.MODELS)::add);
        server.put(SummaryCodec.SERVER_HEADER, e.server().serverHeader());
        server.put(SummaryCodec.VERSION, e.server().version());
        e.server().buildInfo().forEach(server.putArray(SummaryCodec.BUILD_INFO)::add);
        server.put(SummaryCodec.GPU, e.server().gpu());
        final io.aiperf.engine.record.Environment.Connection c = e.connection();
        env.putObject(SummaryCodec.CONNECTION).put(SummaryCodec.PROTOCOL, c.protocol()).put(SummaryCodec.TLS_VERSION, c.tlsVersion())
                .put(SummaryCodec.ALPN, c.alpn()).put(SummaryCodec.PROXY, c.proxy());
        env.put(SummaryCodec.MODEL, e.model()).put(SummaryCodec.TOKENIZER, e.tokenizer());
        final io.aiperf.engine.record.Environment.TokenizerInfo t = e.tokenizerInfo();
        env.putObject(SummaryCodec.TOKENIZER_INFO).put(SummaryCodec.NAME, t.name()).put(SummaryCodec.REVISION, t.revision()).put(SummaryCodec.SOURCE, t.source())
                .put(SummaryCodec.VOCAB_SIZE, t.vocabSize());
        env.put(SummaryCodec.CONFIG_HASH, e.configHash());
        final ObjectNode fingerprint = env.putObject(SummaryCodec.FINGERPRINT);
        e.fingerprint().forEach(fingerprint::put);
    }

    public static byte[] bytes(final RunReport r) {
        return write(r).bytes();
    }
}
