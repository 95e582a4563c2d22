package io.aiperf.engine.summary;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys of {@code profile_export_aiperf.json} (schema 1.5, AIPerf's export docs, plus this engine's
 * client_health, token_accounting, environment, validity and shards blocks, src-docs/exports.md), spelled here
 * only: {@link io.aiperf.engine.export.SummaryJsonWriter} writes with these names and {@link #read} turns a summary
 * into a {@link CellSummary}. The config echo under {@code input_config} is {@link
 * io.aiperf.engine.export.InputConfigEcho}'s; the checks under {@code validity} are judged by {@link
 * io.aiperf.engine.validity.Validity}, with the keys spelled here.
 */
public final class SummaryCodec {
    // Top-level blocks and fields.
    public static final String SCHEMA_VERSION = "schema_version";
    public static final String AIPERF_VERSION = "aiperf_version";
    public static final String BENCHMARK_ID = "benchmark_id";
    public static final String INPUT_CONFIG = "input_config";
    public static final String RUN_INFO = "run_info";
    public static final String WAS_CANCELLED = "was_cancelled";
    /** Upstream AIPerf 0.13: whether every record of the run was processed (false when it was cancelled). */
    public static final String IS_COMPLETE = "is_complete";
    public static final String ERROR_SUMMARY = "error_summary";
    public static final String WARMUP_METRICS = "warmup_metrics";
    public static final String START_TIME = "start_time";
    public static final String END_TIME = "end_time";
    /** Upstream 0.13's GPU telemetry block; written empty here when no GPU telemetry was asked for. */
    public static final String TELEMETRY_DATA = "telemetry_data";
    public static final String TELEMETRY_SUMMARY = "summary";
    public static final String ENDPOINTS_CONFIGURED = "endpoints_configured";
    public static final String ENDPOINTS_SUCCESSFUL = "endpoints_successful";
    public static final String ENDPOINTS = "endpoints";
    public static final String CLIENT_HEALTH = "client_health";
    public static final String TOKEN_ACCOUNTING = "token_accounting";
    public static final String ENVIRONMENT = "environment";
    public static final String VALIDITY = "validity";
    public static final String RUNTIME_SUBMISSION_INVALID_REASONS = "runtime_submission_invalid_reasons";
    public static final String SHARDS = "shards";
    // A metric block.
    public static final String UNIT = "unit";
    public static final String AVG = "avg";
    public static final String MIN = "min";
    public static final String MAX = "max";
    public static final String STD = "std";
    public static final String COUNT = "count";
    public static final String SUM = "sum";
    // run_info.
    public static final String SWEEP_ID = "sweep_id";
    public static final String RANDOM_SEED = "random_seed";
    public static final String TRIAL = "trial";
    public static final String RUN_LABEL = "run_label";
    public static final String VARIATION_LABEL = "variation_label";
    public static final String VARIATION_INDEX = "variation_index";
    public static final String VARIATION_VALUES = "variation_values";
    public static final String CLI_COMMAND = "cli_command";
    // error_summary entries.
    public static final String ERROR_DETAILS = "error_details";
    public static final String CODE = "code";
    public static final String TYPE = "type";
    public static final String MESSAGE = "message";
    // client_health.
    public static final String MAX_SCHEDULE_LAG_MS = "max_schedule_lag_ms";
    public static final String CLIENT_CPU_SECONDS = "client_cpu_seconds";
    public static final String WAKEUP_DELAY_P99_MS = "wakeup_delay_p99_ms";
    public static final String ABANDONED_REQUESTS = "abandoned_requests";
    public static final String RECORD_QUEUE_WAITS = "record_queue_waits";
    public static final String CLIENT_LIMITED = "client_limited";
    public static final String CLIENT_LIMITED_BY = "client_limited_by";
    public static final String OPEN_LOOP = "open_loop";
    public static final String TARGET_RATE = "target_rate";
    public static final String SCHEDULE_RATE = "schedule_rate";
    public static final String ACHIEVED_RATE = "achieved_rate";
    public static final String SCHEDULED = "scheduled";
    public static final String SENT = "sent";
    public static final String LATE_SENDS = "late_sends";
    public static final String MISSED_ARRIVALS = "missed_arrivals";
    public static final String CEILING_WAITS = "ceiling_waits";
    public static final String SCHEDULE_LAG_P50_MS = "schedule_lag_p50_ms";
    public static final String SCHEDULE_LAG_P99_MS = "schedule_lag_p99_ms";
    public static final String SCHEDULE_LAG_MAX_MS = "schedule_lag_max_ms";
    public static final String TRANSPORT = "transport";
    public static final String REQUESTS = "requests";
    public static final String POOL_WAIT_P50_MS = "pool_wait_p50_ms";
    public static final String POOL_WAIT_P99_MS = "pool_wait_p99_ms";
    public static final String POOL_WAIT_MAX_MS = "pool_wait_max_ms";
    public static final String CONNECTS = "connects";
    public static final String CONNECT_MAX_MS = "connect_max_ms";
    public static final String RETRIES = "retries";
    public static final String MALFORMED_CHUNKS = "malformed_chunks";
    public static final String REDIRECTS = "redirects";
    public static final String SERVER_CLOSES_AFTER_RESPONSE = "server_closes_after_response";
    public static final String CONNECTS_OPENED = "connects_opened";
    // token_accounting.
    public static final String COMPARED_REQUESTS = "compared_requests";
    public static final String CLIENT_OUTPUT_TOKENS = "client_output_tokens";
    public static final String SERVER_OUTPUT_TOKENS = "server_output_tokens";
    public static final String OSL_REQUESTS = "osl_requests";
    public static final String REQUESTED_OUTPUT_TOKENS = "requested_output_tokens";
    public static final String DELIVERED_OUTPUT_TOKENS = "delivered_output_tokens";
    // environment.
    public static final String ENGINE = "engine";
    public static final String VERSION = "version";
    public static final String COMMIT = "commit";
    public static final String JAVA = "java";
    public static final String CLIENT_HOST = "client_host";
    public static final String CORES = "cores";
    public static final String OS = "os";
    public static final String LOAD_AVERAGE = "load_average";
    public static final String SERVER = "server";
    public static final String MODELS = "models";
    public static final String SERVER_HEADER = "server_header";
    public static final String BUILD_INFO = "build_info";
    public static final String GPU = "gpu";
    public static final String CONNECTION = "connection";
    public static final String PROTOCOL = "protocol";
    public static final String TLS_VERSION = "tls_version";
    public static final String ALPN = "alpn";
    public static final String PROXY = "proxy";
    public static final String MODEL = "model";
    public static final String TOKENIZER = "tokenizer";
    public static final String TOKENIZER_INFO = "tokenizer_info";
    public static final String NAME = "name";
    public static final String REVISION = "revision";
    public static final String SOURCE = "source";
    public static final String VOCAB_SIZE = "vocab_size";
    public static final String CONFIG_HASH = "config_hash";
    public static final String FINGERPRINT = "fingerprint";
    // shards (a cell merged from shards) and validity.
    public static final String REQUESTS_SENT = "requests_sent";
    public static final String START_LATENESS_MS = "start_lateness_ms";
    public static final String CLOCK_OFFSET_MS = "clock_offset_ms";
    public static final String RESULT = "result";
    public static final String CHECKS = "checks";
    public static final String FIX = "fix";

    private static final ObjectMapper JSON = new ObjectMapper();

    private SummaryCodec() {
    }

    /** Whether a top-level entry of a summary is a metric block: an object with a {@code unit}. */
    public static boolean isMetric(final JsonNode block) {
        return block.isObject() && block.has(UNIT);
    }

    /** A summary file, typed. */
    public static CellSummary read(final Path file) throws IOException {
        return read(JSON.readTree(file.toFile()));
    }

    /** A summary, typed; blocks it lacks read as described on {@link CellSummary}. */
    public static CellSummary read(final JsonNode root) {
        final JsonNode config = root.path(INPUT_CONFIG);
        final JsonNode warmup = root.get(WARMUP_METRICS);
        return new CellSummary(text(root, SCHEMA_VERSION), text(root, AIPERF_VERSION), text(root, BENCHMARK_ID),
                metrics(root), config.isObject() ? config : JsonNodeFactory.instance.objectNode(),
                root.path(WAS_CANCELLED).asBoolean(false), errors(root.path(ERROR_SUMMARY)),
                warmup == null ? null : metrics(warmup), health(root.path(CLIENT_HEALTH)),
                tokens(root.path(TOKEN_ACCOUNTING)), environment(root.path(ENVIRONMENT)), shards(root.get(SHARDS)),
                text(root.path(VALIDITY), RESULT), checks(root.path(VALIDITY).path(CHECKS)));
    }

    /** The metric blocks of an object, by tag in file order. */
    public static Map<String, CellSummary.Metric> metrics(final JsonNode root) {
        final Map<String, CellSummary.Metric> out = new LinkedHashMap<>();
        root.properties().forEach(e -> {
            if (isMetric(e.getValue())) {
                final Map<String, Double> stats = new LinkedHashMap<>();
                e.getValue().properties().forEach(s -> {
                    if (s.getValue().isNumber()) {
                        stats.put(s.getKey(), s.getValue().doubleValue());
                    }
                });
                out.put(e.getKey(), new CellSummary.Metric(e.getValue().get(UNIT).asText(),
                        Collections.unmodifiableMap(stats)));
            }
        });
        return Collections.unmodifiableMap(out);
    }

    private static List<CellSummary.ErrorCount> errors(final JsonNode list) {
        final List<CellSummary.ErrorCount> out = new ArrayList<>();
        for (final JsonNode e : list) {
            final JsonNode d = e.path(ERROR_DETAILS);
            out.add(new CellSummary.ErrorCount(d.path(CODE).isNumber() ? d.path(CODE).asInt() : null,
                    text(d, TYPE), text(d, MESSAGE), e.path(COUNT).asLong(0)));
        }
        return List.copyOf(out);
    }

    private static List<CellSummary.ValidityCheck> checks(final JsonNode list) {
        final List<CellSummary.ValidityCheck> out = new ArrayList<>();
        for (final JsonNode c : list) {
            out.add(new CellSummary.ValidityCheck(text(c, NAME), text(c, RESULT), text(c, MESSAGE), text(c, FIX)));
        }
        return List.copyOf(out);
    }

    private static CellSummary.ClientHealth health(final JsonNode h) {
        final Map<String, CellSummary.OpenLoop> loops = new LinkedHashMap<>();
        h.path(OPEN_LOOP).properties().forEach(e -> loops.put(e.getKey(), new CellSummary.OpenLoop(
                e.getValue().path(SCHEDULED).asLong(0), e.getValue().path(SENT).asLong(0),
                e.getValue().path(SCHEDULE_LAG_P99_MS).asDouble(0))));
        return new CellSummary.ClientHealth(number(h, WAKEUP_DELAY_P99_MS), number(h, ABANDONED_REQUESTS),
                Collections.unmodifiableMap(loops), number(h.path(TRANSPORT), POOL_WAIT_P99_MS));
    }

    private static CellSummary.TokenAccounting tokens(final JsonNode t) {
        return new CellSummary.TokenAccounting(t.path(COMPARED_REQUESTS).asLong(0),
                t.path(CLIENT_OUTPUT_TOKENS).asLong(0), t.path(SERVER_OUTPUT_TOKENS).asLong(0),
                t.path(OSL_REQUESTS).asLong(0), t.path(REQUESTED_OUTPUT_TOKENS).asLong(0),
                t.path(DELIVERED_OUTPUT_TOKENS).asLong(0));
    }

    private static CellSummary.Environment environment(final JsonNode env) {
        final Map<String, String> fingerprint = new LinkedHashMap<>();
        env.path(FINGERPRINT).properties().forEach(e -> fingerprint.put(e.getKey(),
                e.getValue().isNull() ? null : e.getValue().asText()));
        return new CellSummary.Environment(text(env, CONFIG_HASH), Collections.unmodifiableMap(fingerprint));
    }

    private static CellSummary.Shards shards(final JsonNode s) {
        if (s == null || !s.isObject()) {
            return null;
        }
        return new CellSummary.Shards(s.path(COUNT).asInt(0), numbers(s.path(START_LATENESS_MS)),
                numbers(s.path(CLOCK_OFFSET_MS)));
    }

    private static List<Double> numbers(final JsonNode list) {
        final List<Double> out = new ArrayList<>();
        list.forEach(v -> {
            if (v.isNumber()) {
                out.add(v.asDouble());
            }
        });
        return List.copyOf(out);
    }

    private static String text(final JsonNode o, final String key) {
        final JsonNode v = o.get(key);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static double number(final JsonNode o, final String key) {
        final JsonNode v = o.get(key);
        return v != null && v.isNumber() ? v.asDouble() : Double.NaN;
    }
}
