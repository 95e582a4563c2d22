package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns the merged canonical tree into a validated {@link BenchmarkConfig}, writing defaults back into the
 * tree. Every problem is a {@link ConfigException} naming the field (and the CLI flag when it came from one).
 * The {@code *_KEYS} lists are the keys each method binds by hand; a mapping also accepts the option table's keys
 * ({@link DeclaredOptions}), and a CLI option's default is the table's ({@code Section.defaulted*}).
 * <p>
 * It is over 400 lines because it validates every section of the config in one pass, naming the field of each
 * problem.
 */
public final class ConfigBinder {
    /**
     * Record metrics an SLO may name, with whether larger is better: the goodput tags of the metric catalogue
     * ({@code metrics.MetricRegistry}; config depends on no engine package, so a test keeps the two equal).
     */
    public static final Map<String, Boolean> SLO_LARGER_IS_BETTER = Map.ofEntries(
            Map.entry("request_latency", false), Map.entry("time_to_first_token", false),
            Map.entry("time_to_second_token", false), Map.entry("time_to_first_output_token", false),
            Map.entry("inter_token_latency", false), Map.entry("decode_duration", false),
            Map.entry("output_token_throughput_per_user", true), Map.entry("prefill_throughput_per_user", true),
            Map.entry("e2e_output_token_throughput", true), Map.entry("input_sequence_length", true),
            Map.entry("output_sequence_length", true));

    /** The reason given when no model is named (the CLI then asks the server, see src-docs/cli.md). */
    public static final String NO_MODEL = "at least one model name is required (-m/--model)";

    static final List<String> BENCHMARK_KEYS = List.of("models", "endpoint", "dataset", "phases", "artifacts",
            "tokenizer", "slos", "runtime");
    static final List<String> ENDPOINT_KEYS = List.of("urls", "type", "path", "streaming", "api_key", "headers",
            "extra", "timeout", "use_server_token_count", "use_legacy_max_tokens", "url_strategy",
            "reset_kv_cache", "server_profiler", "ssl_verify", "ssl_ca_file", "ssl_cert_file", "ssl_key_file",
            "proxy", "http2", "server_metrics", "model_selection",
            "session_header", "template", "gpu_telemetry", "connection_reuse", "wait_for_model_timeout",
            "wait_for_model_interval", "wait_for_model_mode", "per_chunk_usage");
    static final List<String> DATASET_KEYS = List.of("name", "type", "entries", "random_seed", "prompts", "path",
            "format", "block_size", "public_dataset", "sampling", "turns", "turn_delay", "ignore_trace_delays", "media_roots",
            "turn_delay_cap", "rankings", "synthesis", "images", "audio");
    static final List<String> PROMPT_KEYS = List.of("isl", "osl", "batch_size", "prefix_prompts",
            "shared_system_prompt_length", "sequence_distribution", "user_context_prompt_length", "system_prompt",
            "system_prompt_file");
    static final List<String> TURN_DELAY_KEYS = List.of("mean", "stddev", "ratio");
    static final List<String> PREFIX_KEYS = List.of("pool_size", "length");
    static final List<String> DIST_KEYS = List.of("mean", "stddev");
    static final List<String> PHASE_KEYS = List.of("name", "kind", "type", "concurrency", "rate", "smoothness",
            "requests", "sessions", "duration", "grace_period", "seamless", "exclude_from_results", "auto_offset",
            "start_offset", "end_offset", "concurrency_ramp_duration", "rate_ramp_duration", "prefill_concurrency",
            "failed_request_threshold", "users", "prefill_concurrency_ramp_duration", "rate_series", "cancellation");
    static final List<String> ARTIFACT_KEYS = List.of("dir", "prefix", "export_level", "slice_duration", "summary",
            "records", "raw", "export_outputs_json", "export_http_trace", "show_trace_timing", "auto_plot", "plot_required", "otel");
    static final List<String> RESET_KEYS = List.of("path", "timeout_seconds", "max_retry_seconds");
    static final List<String> PROFILER_KEYS = List.of("start_path", "stop_path", "timeout_seconds");
    private static final Pattern PHASE_NAME = Pattern.compile("^[A-Za-z_][A-Za-z0-9_-]*$");
    private static final int DEFAULT_REQUEST_COUNT = 10;
    private DatasetConfig.InputFile fileDataset; // read by the phases: a trace sets their timing and count
    private String samplingTrace; // the sampling field, when one is set for a timestamped trace
    private boolean multiTurn; // some conversation may have more than one turn
    private boolean streaming; // the endpoint streams (read by the phases: prefill concurrency needs it)

    private final Map<String, String> cliFlags;
    private final DeclaredOptions declared;
    private final List<String> warnings = new ArrayList<>();

    private ConfigBinder(final Map<String, String> cliFlags, final DeclaredOptions declared) {
        this.cliFlags = cliFlags;
        this.declared = declared;
    }

    /**
     * @param tree the canonical merged envelope (modified: defaults are filled in)
     * @param cliFlags canonical path to the CLI flag that set it, for error messages
     */
    public static BenchmarkConfig bind(final ObjectNode tree, final Map<String, String> cliFlags) {
        return bind(tree, cliFlags, DeclaredOptions.installed());
    }

    /** As {@link #bind(ObjectNode, Map)} with another option table than the CLI's (tests). */
    public static BenchmarkConfig bind(final ObjectNode tree, final Map<String, String> cliFlags,
                                       final DeclaredOptions declared) {
        return new ConfigBinder(cliFlags, declared).bindEnvelope(tree);
    }

    private BenchmarkConfig bindEnvelope(final ObjectNode tree) {
        final ObjectNode given = tree.deepCopy();
        final Section env = new Section(tree, "", cliFlags, declared);
        env.allowOnly(ConfigShapes.ENVELOPE_KEYS);
        final Long seed = env.longValue("random_seed");
        if (seed != null && seed < 0) {
            throw env.error("random_seed", "Input should be greater than or equal to 0");
        }
        final Section b = env.section("benchmark");
        b.allowOnly(BENCHMARK_KEYS);
        final List<String> models = b.stringList("models");
        if (models.isEmpty() || models.stream().anyMatch(String::isBlank)) {
            throw b.error("models", NO_MODEL);
        }
        final ArrayNode modelNode = b.node().putArray("models");
        models.forEach(modelNode::add);
        final EndpointConfig endpoint = endpoint(b.section("endpoint"));
        streaming = endpoint.streaming();
        final DatasetConfig dataset = dataset(b.section("dataset"), b.raw("phases"));
        final boolean rawRows = dataset.file() != null && dataset.file().format() == DatasetConfig.Format.RAW_PAYLOAD;
        if (endpoint.type() == EndpointType.RAW && !rawRows) {
            throw new ConfigException("benchmark.endpoint.type", "--endpoint-type raw sends the rows of a "
                    + "raw_payload file as they are: give --input-file FILE (rows with a messages list) or "
                    + "--custom-dataset-type raw_payload");
        }
        if (multiTurn && !endpoint.type().conversational()) {
            throw new ConfigException("benchmark.dataset", "an " + endpoint.type().wireName() + " endpoint has no "
                    + "conversation: multi-turn datasets need an endpoint that generates text (chat, completions, "
                    + "responses, ...)");
        }
        final List<PhaseConfig> phases = phases(b);
        final Section art = b.section("artifacts");
        art.allowOnly(ARTIFACT_KEYS);
        final boolean dirExplicit = art.has("dir");
        final String exportLevel = art.string("export_level", exportLevelOf(art)).toLowerCase(Locale.ROOT);
        if (!List.of("summary", "records", "raw").contains(exportLevel)) {
            throw art.error("export_level", "expected summary, records or raw, got '" + exportLevel + "'");
        }
        final Double slice = art.seconds("slice_duration");
        if (slice != null && !(slice > 0)) {
            throw art.error("slice_duration", "Input should be greater than 0");
        }
        if (slice != null && exportLevel.equals("summary")) {
            throw art.error("slice_duration", "timeslices are computed from the per-request records, which "
                    + "--export-level summary does not write");
        }
        final ArtifactsConfig artifacts = new ArtifactsConfig(art.string("dir", "artifacts"), dirExplicit,
                art.string("prefix", null), exportLevel, slice, art.bool("export_outputs_json", false),
                art.bool("export_http_trace", false), art.bool("show_trace_timing", false),
                art.bool("auto_plot", false), art.bool("plot_required", false),
                art.has("otel") ? OtelBinder.bind(art.section("otel")) : null);
        final Section tok = b.section("tokenizer");
        tok.allowOnly(List.of("name", "revision", "trust_remote_code", "apply_chat_template"));
        final TokenizerConfig tokenizer = new TokenizerConfig(tok.string("name", null), tok.defaultedString("revision"),
                tok.bool("trust_remote_code", false), tok.bool("apply_chat_template", false));
        final Map<String, Double> slos = slos(b.section("slos"));
        final Section runtime = b.section("runtime");
        runtime.allowOnly(List.of("ui", "max_error_rate", "max_event_bytes", "max_response_bytes", "retry_unsent",
                "request_cancellation", "shard", "start_at", "http_client", "preconnect", "max_head_bytes"));
        final String ui = runtime.string("ui", null);
        final double maxErrorRate = runtime.defaultedNumber("max_error_rate");
        if (!(maxErrorRate >= 0 && maxErrorRate <= 100)) {
            throw runtime.error("max_error_rate", "Input should be a percentage between 0 and 100");
        }
        final double maxEvent = runtime.defaultedNumber("max_event_bytes");
        final double maxResponse = runtime.defaultedNumber("max_response_bytes");
        if (!(maxEvent >= 1024 && maxEvent <= Integer.MAX_VALUE - 16)) {
            throw runtime.error("max_event_bytes", "Input should be between 1024 and 2147483631");
        }
        if (!(maxResponse >= maxEvent)) {
            throw runtime.error("max_response_bytes", "Input should be at least max_event_bytes (" + (long) maxEvent + ")");
        }
        final double maxHead = runtime.defaultedNumber("max_head_bytes");
        if (!(maxHead >= 1024 && maxHead <= 1 << 30)) {
            throw runtime.error("max_head_bytes", "Input should be between 1024 and 1073741824");
        }
        final Shard shard = runtime.has("shard") || runtime.has("start_at")
                ? Shard.parse(runtime.field("shard"), runtime.string("shard", null), runtime.string("start_at", null))
                : null;
        final Section cancel = runtime.section("request_cancellation");
        cancel.allowOnly(List.of("rate", "delay"));
        final boolean delayGiven = cancel.has("delay");
        final double cancelRate = cancel.number("rate", 0.0);
        final double cancelDelay = cancel.defaultedNumber("delay");
        if (!(cancelRate >= 0 && cancelRate <= 100)) {
            throw cancel.error("rate", "Input should be a percentage greater than 0 and at most 100");
        }
        if (!(cancelDelay >= 0) || Double.isInfinite(cancelDelay)) {
            throw cancel.error("delay", "Input should be greater than or equal to 0");
        }
        // a delay needs a rate; an expanded config's "rate: 0, delay: 0" (the defaults written out) asks for nothing
        if (delayGiven && (!cancel.has("rate") || cancelRate == 0 && cancelDelay != 0)) {
            throw cancel.error("delay", "--request-cancellation-delay requires --request-cancellation-rate");
        }
        final String httpClient = runtime.string("http_client", "lean");
        if (!List.of("lean", "apache").contains(httpClient)) {
            throw runtime.error("http_client", "expected lean or apache; got '" + httpClient + "'");
        }
        final RunLimits limits = new RunLimits(maxErrorRate, (long) maxEvent, (long) maxResponse,
                runtime.bool("retry_unsent", true), cancelRate, cancelDelay, httpClient.equals("lean"),
                runtime.bool("preconnect", true), (int) maxHead);
        if (ui != null && !List.of("dashboard", "simple", "none").contains(ui.toLowerCase(Locale.ROOT))) {
            throw runtime.error("ui", "expected one of dashboard, simple, none; got '" + ui + "'");
        }
        final MultiRunConfig multiRun = multiRun(env.section("multi_run"), !env.bool("no_sweep_table", false));
        final Long effectiveSeed = seed == null && multiRun.numRuns() > 1 && multiRun.setConsistentSeed() ? Long.valueOf(42) : seed;
        final BenchmarkConfig config = new BenchmarkConfig(List.copyOf(models), endpoint, dataset, phases, artifacts,
                tokenizer, slos, effectiveSeed, ui == null ? null : ui.toLowerCase(Locale.ROOT), multiRun,
                List.copyOf(warnings), tree, given, List.of(), limits, shard);
        config.forShard(); // a load too small to split among the shards is a usage error now, not mid-run
        return config;
    }

    private static MultiRunConfig multiRun(final Section m, final boolean sweepTable) {
        // convergence is read by the command line's ConvergenceOptions (src-docs/capacity.md)
        m.allowOnly(List.of("num_runs", "cooldown_seconds", "confidence_level", "disable_warmup_after_first",
                "set_consistent_seed", "convergence", "vary_seed_per_trial", "sweep_cooldown_seconds",
                "sweep_same_seed", "sweep_mode"));
        final int runs = m.defaultedInteger("num_runs");
        if (runs < 1 || runs > 10) {
            throw m.error("num_runs", "Input should be between 1 and 10");
        }
        final double cooldown = m.defaultedNumber("cooldown_seconds");
        if (!(cooldown >= 0) || Double.isInfinite(cooldown)) {
            throw m.error("cooldown_seconds", "Input should be greater than or equal to 0");
        }
        final double level = m.defaultedNumber("confidence_level");
        if (!(level > 0 && level < 1)) {
            throw m.error("confidence_level", "Input should be between 0 and 1 (exclusive)");
        }
        final double sweepCooldown = m.defaultedNumber("sweep_cooldown_seconds");
        if (!(sweepCooldown >= 0) || Double.isInfinite(sweepCooldown)) {
            throw m.error("sweep_cooldown_seconds", "Input should be greater than or equal to 0");
        }
        final String mode = m.defaultedString("sweep_mode").toLowerCase(Locale.ROOT);
        if (!List.of("repeated", "independent").contains(mode)) {
            throw m.error("sweep_mode", "expected repeated or independent, got '" + mode + "'");
        }
        return new MultiRunConfig(runs, cooldown, level, m.bool("disable_warmup_after_first", true),
                m.bool("set_consistent_seed", true), sweepTable, m.bool("vary_seed_per_trial", false), sweepCooldown,
                m.bool("sweep_same_seed", false), mode.equals("independent"));
    }

    private EndpointConfig endpoint(final Section e) {
        e.allowOnly(ENDPOINT_KEYS);
        final List<String> raw = e.stringList("urls");
        if (raw.isEmpty()) {
            raw.add(e.declaredDefault("urls"));
        }
        final List<String> urls = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            urls.add(normalizeUrl(e.field("urls") + (raw.size() > 1 ? "[" + i + "]" : ""), raw.get(i)));
        }
        final ArrayNode urlNode = e.node().putArray("urls");
        urls.forEach(urlNode::add);
        final EndpointType type = EndpointType.parse(e.field("type"), e.defaultedString("type"));
        e.node().put("type", type.wireName());
        final String path = e.string("path", null);
        boolean streaming = e.bool("streaming", false);
        if (streaming && !type.supportsStreaming()) {
            warnings.add("streaming is not supported by the " + type.wireName() + " endpoint; sending without it");
            streaming = false;
        }
        final String apiKey = e.string("api_key", null);
        final Map<String, String> headers = new LinkedHashMap<>();
        final JsonNode h = e.raw("headers");
        if (h != null && !h.isNull()) {
            if (!h.isObject()) {
                throw e.error("headers", "expected a mapping of header names to values");
            }
            h.properties().forEach(f -> headers.put(f.getKey(), f.getValue().asText()));
        }
        final JsonNode extra = e.raw("extra");
        if (extra != null && !extra.isNull() && !extra.isObject()) {
            throw e.error("extra", "expected a mapping of body fields");
        }
        if (extra != null && extra.has("stream") && extra.get("stream").asBoolean(false) != streaming
                && type.supportsStreaming()) {
            // the body field would silently decide what the run measures (TTFT or not), against the flag
            throw e.error("extra", "'stream: " + extra.get("stream").asText() + "' contradicts "
                    + (streaming ? "--streaming" : "the default of not streaming") + "; use --streaming (or leave it "
                    + "out) instead of setting stream in --extra-inputs");
        }
        final double timeout = e.defaultedNumber("timeout");
        if (!(timeout >= 0) || Double.isInfinite(timeout)) {
            throw e.error("timeout", "Input should be greater than 0");
        }
        final String urlStrategy = e.defaultedString("url_strategy");
        if (!urlStrategy.equals("round_robin")) {
            throw e.error("url_strategy", "only round_robin is supported");
        }
        final boolean serverTokens = e.bool("use_server_token_count", false);
        final boolean perChunkUsage = e.bool("per_chunk_usage", false);
        if (perChunkUsage && (!serverTokens || type != EndpointType.CHAT || !streaming)) {
            // upstream's three conditions: the count comes from the server's usage, on chat's streamed chunks
            throw e.error("per_chunk_usage", !serverTokens ? "--per-chunk-usage needs --use-server-token-count (the "
                    + "first chunk's token count comes from the server's per-chunk usage)"
                    : type != EndpointType.CHAT ? "--per-chunk-usage needs --endpoint-type chat" : "--per-chunk-usage "
                    + "needs --streaming");
        }
        return new EndpointConfig(List.copyOf(urls), type, path, streaming,
                apiKey == null || apiKey.isEmpty() ? null : new Secret(apiKey), headers,
                extra == null || extra.isNull() ? null : (ObjectNode) extra, timeout,
                serverTokens, e.bool("use_legacy_max_tokens", false),
                resetHook(e), profilerHook(e), tls(e), serverMetrics(e, urls), modelSelection(e), sessionHeader(e),
                template(e, type), gpuTelemetry(e), proxy(e),
                e.bool("http2", false), connectionReuse(e), waitForModel(e), perChunkUsage);
    }

    /** Upstream's {@code wait_for_model_timeout/interval/mode}: timeout 0 (no waiting), the others the table's. */
    private static WaitForModel waitForModel(final Section e) {
        final Double timeout = e.seconds("wait_for_model_timeout");
        final Double interval = e.seconds("wait_for_model_interval");
        final String mode = e.defaultedString("wait_for_model_mode").toLowerCase(Locale.ROOT);
        if (timeout != null && !(timeout >= 0)) {
            throw e.error("wait_for_model_timeout", "Input should be greater than or equal to 0");
        }
        if (interval != null && !(interval > 0)) {
            throw e.error("wait_for_model_interval", "Input should be greater than 0");
        }
        if (!List.of("inference", "models", "both").contains(mode)) {
            throw e.error("wait_for_model_mode", "expected inference, models or both, got '" + mode + "'");
        }
        return new WaitForModel(timeout == null ? 0 : timeout,
                interval == null ? Double.parseDouble(e.declaredDefault("wait_for_model_interval")) : interval, mode);
    }

    /** {@code connection_reuse}: upstream's strategies (src-docs/cli.md, connection reuse). */
    private static ConnectionReuse connectionReuse(final Section e) {
        final String v = e.string("connection_reuse", ConnectionReuse.POOLED.wireName());
        final ConnectionReuse r = ConnectionReuse.parse(v);
        if (r == null) {
            throw e.error("connection_reuse", "expected pooled, never or sticky-user-sessions; got '" + v + "'");
        }
        e.node().put("connection_reuse", r.wireName());
        return r;
    }

    /**
     * {@code gpu_telemetry}: false (the default), true (DCGM's default ports on localhost), a list of URLs, or
     * upstream's mapping {@code {enabled, urls, collector, mode}} (enabled by default; no URLs: DCGM's default ports).
     */
    private static List<String> gpuTelemetry(final Section e) {
        final JsonNode raw = e.raw("gpu_telemetry");
        if (raw == null || raw.isNull() || raw.isBoolean() && !raw.asBoolean()) {
            return List.of();
        }
        if (raw.isBoolean()) {
            return List.of("http://localhost:9400/metrics", "http://localhost:9401/metrics");
        }
        final List<String> given;
        final Section where;
        if (raw.isObject()) {
            where = e.section("gpu_telemetry");
            where.allowOnly(List.of("enabled", "url", "urls", "collector", "mode", "metrics_file"));
            if (where.has("metrics_file")) {
                throw where.error("metrics_file", "GPU metrics recorded in a file are not replayed here; give the "
                        + "DCGM exporter's URLs (urls)");
            }
            final String collector = where.string("collector", "dcgm");
            if (!collector.equals("dcgm")) {
                throw where.error("collector", collector.equals("pynvml") || collector.equals("amdsmi")
                        ? "'" + collector + "' reads GPUs through a local library, which this engine does not; give "
                        + "the DCGM exporter's URLs (urls)" : "expected dcgm, got '" + collector + "'");
            }
            final String mode = where.string("mode", "summary"); // the live view is upstream's console only
            if (!List.of("summary", "realtime_dashboard").contains(mode)) {
                throw where.error("mode", "expected summary or realtime_dashboard, got '" + mode + "'");
            }
            if (where.has("url") && where.has("urls")) {
                throw where.error("url", "give either 'url' or 'urls', not both");
            }
            if (!where.bool("enabled", true)) {
                return List.of();
            }
            given = where.stringList(where.has("url") ? "url" : "urls");
        } else {
            where = e;
            given = e.stringList("gpu_telemetry");
        }
        final String key = where == e ? "gpu_telemetry" : "urls";
        final List<String> out = new ArrayList<>();
        for (final String u : given) {
            if (u.equals("pynvml") || u.equals("amdsmi")) {
                throw where.error(key, "'" + u + "' reads GPUs through a local library, which this engine "
                        + "does not; give the DCGM exporter's URL");
            }
            if (u.equals("dashboard")) {
                continue; // upstream's live GPU view; this engine has none, the samples are exported all the same
            }
            final String withScheme = u.contains("://") ? u : "http://" + u;
            try {
                final URI uri = new URI(withScheme);
                if (uri.getHost() == null) {
                    throw where.error(key, "'" + u + "' has no host");
                }
                out.add(uri.getPath() == null || uri.getPath().isEmpty() ? withScheme + "/metrics" : withScheme);
            } catch (URISyntaxException ex) {
                throw where.error(key, "'" + u + "' is not a URL: " + ex.getMessage());
            }
        }
        return out.isEmpty() ? List.of("http://localhost:9400/metrics", "http://localhost:9401/metrics")
                : List.copyOf(out);
    }

    private static PayloadTemplate template(final Section e, final EndpointType type) {
        final JsonNode extra = e.raw("extra");
        if (!e.has("template") && type == EndpointType.TEMPLATE && extra != null && extra.has("payload_template")) {
            // upstream's --extra-inputs payload_template:... and response_field:..., which are no body fields
            final ObjectNode x = (ObjectNode) extra;
            final ObjectNode t = e.node().putObject("template");
            t.put("body", PayloadTemplate.bodyOf(x.remove("payload_template").asText(), e.field("extra")));
            final JsonNode field = x.remove("response_field");
            t.set("response_field", field == null ? com.fasterxml.jackson.databind.node.TextNode.valueOf("")
                    : field); // none given: detected, as upstream's template endpoint does
        }
        if (!e.has("template")) {
            if (type == EndpointType.TEMPLATE) {
                throw e.error("template", "the template endpoint needs template: {body, response_field} or "
                        + "--extra-inputs payload_template:TEMPLATE");
            }
            return null;
        }
        final Section t = e.section("template");
        t.allowOnly(List.of("body", "response_field"));
        final JsonNode raw = t.raw("body");
        final String body = raw == null ? null : raw.isTextual() ? raw.asText() : raw.toString();
        if (body == null || body.isBlank()) {
            throw t.error("body", "a template needs a body");
        }
        final String field = t.string("response_field", "text");
        final PayloadTemplate template = new PayloadTemplate(body, field.isEmpty() ? null : field);
        final String problem = template.problem();
        if (problem != null) {
            throw t.error("body", problem);
        }
        return template;
    }

    private static String modelSelection(final Section e) {
        final String v = e.defaultedString("model_selection").toLowerCase(Locale.ROOT).replace('-', '_');
        if (!v.equals("round_robin") && !v.equals("random")) {
            throw e.error("model_selection", "expected round_robin or random, got '" + v + "' (weighted is listed "
                    + "under deliberate differences in src-docs/cli.md)");
        }
        return v;
    }

    /**
     * Upstream's artifact formats: {@code summary: [json]} (the summary JSON and CSV are always written here, as the
     * gate, the report and compare read them), {@code records: [jsonl]} or {@code false} (export level summary),
     * {@code raw: true} (export level raw). They are folded into {@code export_level}.
     */
    private String exportLevelOf(final Section art) {
        final JsonNode summary = art.raw("summary");
        if (summary != null && !summary.isNull()) {
            if (summary.isBoolean() && !summary.asBoolean()) {
                throw art.error("summary", "the summary JSON is always written (the gate, the report and compare "
                        + "read it); remove summary: false");
            }
            formats(art, "summary", summary, List.of("json", "csv"));
        }
        final JsonNode records = art.raw("records");
        final JsonNode raw = art.raw("raw");
        final boolean noRecords = records != null && records.isBoolean() && !records.asBoolean();
        if (records != null && !records.isNull() && !noRecords) {
            if (formats(art, "records", records, List.of("jsonl", "csv")).contains("csv")) {
                warnings.add(art.field("records") + ": records are written as JSONL only (upstream has no records "
                        + "CSV either); csv ignored");
            }
        }
        if (raw != null && !raw.isNull() && !raw.isBoolean()) {
            throw art.error("raw", "expected true or false");
        }
        final boolean rawExport = raw != null && raw.asBoolean();
        if (art.has("export_level") && (records != null || raw != null)) {
            throw art.error("export_level", "give either export_level or records/raw");
        }
        art.node().remove(List.of("summary", "records", "raw"));
        if (rawExport && noRecords) {
            throw art.error("raw", "raw: true keeps the records; it cannot go with records: false");
        }
        return rawExport ? "raw" : noRecords ? "summary" : "records";
    }

    private static List<String> formats(final Section art, final String key, final JsonNode v,
                                        final List<String> allowed) {
        if (!v.isArray() || v.isEmpty()) {
            throw art.error(key, key + " takes a non-empty list of formats (" + String.join(", ", allowed)
                    + ") or false");
        }
        final List<String> out = new ArrayList<>();
        for (final JsonNode f : v) {
            final String name = f.asText().toLowerCase(Locale.ROOT);
            if (!allowed.contains(name)) {
                throw art.error(key, "unknown format '" + f.asText() + "'; expected " + String.join(", ", allowed));
            }
            out.add(name);
        }
        return out;
    }

    private static String sessionHeader(final Section e) {
        final String v = e.string("session_header", "X-Correlation-ID");
        if (!v.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
            throw e.error("session_header", "'" + v + "' is not an HTTP header name");
        }
        return v;
    }

    /** {@code server_metrics}: true (the default), false, or {enabled, urls, formats, interval}. */
    private ServerMetricsConfig serverMetrics(final Section e, final List<String> targets) {
        final JsonNode raw = e.raw("server_metrics");
        if (raw != null && raw.isBoolean() && !raw.asBoolean()) {
            return ServerMetricsConfig.OFF;
        }
        if (raw != null && !raw.isBoolean() && !raw.isObject()) {
            throw e.error("server_metrics", "expected true, false or a mapping");
        }
        final Section s = raw != null && raw.isObject() ? e.section("server_metrics") : null;
        if (s != null) {
            s.allowOnly(List.of("enabled", "urls", "formats", "interval"));
            if (!s.bool("enabled", true)) {
                return ServerMetricsConfig.OFF;
            }
        }
        final java.util.LinkedHashSet<String> urls = new java.util.LinkedHashSet<>();
        for (final String target : targets) {
            final URI u = URI.create(target);
            // the server's origin, not the route, and no userinfo (as the control hooks)
            urls.add(u.getScheme() + "://" + u.getHost() + (u.getPort() >= 0 ? ":" + u.getPort() : "") + "/metrics");
        }
        if (s != null) {
            for (final String u : s.stringList("urls")) {
                final String withScheme = u.contains("://") ? u : "http://" + u;
                try {
                    final URI uri = new URI(withScheme);
                    if (uri.getHost() == null) {
                        throw s.error("urls", "'" + u + "' has no host");
                    }
                    urls.add(uri.getPath() == null || uri.getPath().isEmpty() ? withScheme + "/metrics" : withScheme);
                } catch (URISyntaxException ex) {
                    throw s.error("urls", "'" + u + "' is not a URL: " + ex.getMessage());
                }
            }
        }
        final List<String> asked = s == null || !s.has("formats") ? List.of("json", "csv") : s.stringList("formats");
        final List<String> formats = new ArrayList<>();
        for (final String f : asked) {
            if (f.equals("json") || f.equals("csv")) {
                formats.add(f);
            } else if (!f.equals("jsonl") && !f.equals("parquet")) {
                throw s.error("formats", "unknown format '" + f + "'; expected json, csv, jsonl or parquet");
            }
        }
        if (formats.size() < asked.size()) {
            if (formats.isEmpty()) {
                throw s.error("formats", asked + " are not written by this engine; choose json and/or csv (jsonl and "
                        + "parquet are listed in cli.md under deliberate differences)");
            }
            warnings.add(s.field("formats") + ": only " + formats + " are written (jsonl and parquet are listed in "
                    + "cli.md under deliberate differences)");
            final ArrayNode kept = s.node().putArray("formats");
            formats.forEach(kept::add);
        }
        final double interval = s == null ? 1.0 : s.number("interval", 1.0);
        if (!(interval > 0) || Double.isInfinite(interval)) {
            throw s.error("interval", "Input should be greater than 0");
        }
        return new ServerMetricsConfig(true, List.copyOf(urls), List.copyOf(formats), interval);
    }

    /** {@code proxy}, else the proxy variables of the environment. */
    private static ProxyConfig proxy(final Section e) {
        try {
            return ProxyConfig.of(e.string("proxy", null), System.getenv());
        } catch (ConfigException ex) {
            throw "endpoint.proxy".equals(ex.field()) ? e.error("proxy", ex.reason()) : ex;
        }
    }

    private TlsConfig tls(final Section e) {
        final TlsConfig tls = new TlsConfig(e.bool("ssl_verify", true), e.string("ssl_ca_file", null),
                e.string("ssl_cert_file", null), e.string("ssl_key_file", null));
        if (tls.caFile() != null) {
            try {
                tls.caCertificates();
            } catch (java.io.IOException | java.security.GeneralSecurityException ex) {
                throw e.error("ssl_ca_file", "cannot read CA certificates from " + tls.caFile() + ": " + ex.getMessage());
            }
        }
        if ((tls.certFile() == null) != (tls.keyFile() == null)) {
            throw e.error(tls.certFile() == null ? "ssl_cert_file" : "ssl_key_file", "a client certificate needs "
                    + "both ssl_cert_file and ssl_key_file (--ssl-cert-file, --ssl-key-file)");
        }
        if (tls.certFile() != null) {
            try {
                tls.clientCertificates();
            } catch (java.io.IOException | java.security.GeneralSecurityException ex) {
                throw e.error("ssl_cert_file", "cannot read the client certificate from " + tls.certFile() + ": "
                        + ex.getMessage());
            }
            try {
                tls.clientKey();
            } catch (java.io.IOException | java.security.GeneralSecurityException ex) {
                throw e.error("ssl_key_file", "cannot read the client key from " + tls.keyFile() + ": "
                        + ex.getMessage());
            }
        }
        if (!tls.verify()) {
            warnings.add("TLS certificate verification is off (ssl_verify: false, --ssl-insecure or "
                    + "AIPERF_HTTP_SSL_VERIFY=false): the server's identity is not checked");
        }
        return tls;
    }

    static String normalizeUrl(final String field, final String text) {
        final String trimmed = text.trim();
        final String withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed;
        final URI uri;
        try {
            uri = new URI(withScheme);
        } catch (URISyntaxException ex) {
            throw new ConfigException(field, "invalid URL '" + redactUserInfo(text) + "': " + ex.getReason());
        }
        final String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ConfigException(field, "invalid URL '" + redactUserInfo(text)
                    + "': only http and https are supported");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new ConfigException(field, "invalid URL '" + redactUserInfo(text) + "': a host is required");
        }
        if (uri.getPort() > 65535) {
            throw new ConfigException(field, "invalid URL '" + redactUserInfo(text) + "': port " + uri.getPort()
                    + " is out of range (1-65535)");
        }
        return withScheme.endsWith("/") ? withScheme.substring(0, withScheme.length() - 1) : withScheme;
    }

    static String redactUserInfo(final String url) {
        return url.replaceAll("://[^/@]*@", "://<redacted>@");
    }

    private ResetKvCacheConfig resetHook(final Section e) {
        final JsonNode v = e.raw("reset_kv_cache");
        if (v == null || v.isNull() || (v.isBoolean() && !v.booleanValue())) {
            e.node().put("reset_kv_cache", false);
            return null;
        }
        if (v.isBoolean()) {
            e.node().putObject("reset_kv_cache");
        } else if (!v.isObject()) {
            throw e.error("reset_kv_cache", "Expected false | true | object for ResetKvCacheConfig, got "
                    + Section.typeName(v));
        }
        final Section s = e.section("reset_kv_cache");
        s.allowOnly(RESET_KEYS);
        final String path = hookPath(s, "path", ResetKvCacheConfig.DEFAULT_PATH);
        final double timeout = positive(s, "timeout_seconds", ResetKvCacheConfig.DEFAULT_TIMEOUT_SECONDS);
        final double retry = s.number("max_retry_seconds", ResetKvCacheConfig.DEFAULT_MAX_RETRY_SECONDS);
        if (!(retry >= 0) || Double.isInfinite(retry)) {
            throw s.error("max_retry_seconds", "Input should be greater than or equal to 0 and finite, got "
                    + s.raw("max_retry_seconds"));
        }
        return new ResetKvCacheConfig(path, timeout, retry);
    }

    private ServerProfilerConfig profilerHook(final Section e) {
        final JsonNode v = e.raw("server_profiler");
        if (v == null || v.isNull() || (v.isBoolean() && !v.booleanValue())) {
            e.node().put("server_profiler", false);
            return null;
        }
        if (v.isBoolean()) {
            e.node().putObject("server_profiler");
        } else if (!v.isObject()) {
            throw e.error("server_profiler", "Expected false | true | object for ServerProfilerConfig, got "
                    + Section.typeName(v));
        }
        final Section s = e.section("server_profiler");
        s.allowOnly(PROFILER_KEYS);
        return new ServerProfilerConfig(hookPath(s, "start_path", ServerProfilerConfig.DEFAULT_START_PATH),
                hookPath(s, "stop_path", ServerProfilerConfig.DEFAULT_STOP_PATH),
                positive(s, "timeout_seconds", ServerProfilerConfig.DEFAULT_TIMEOUT_SECONDS));
    }

    private static String hookPath(final Section s, final String key, final String def) {
        String p = s.string(key, null);
        if (p == null || p.isEmpty()) {
            p = def;
            s.node().put(key, def);
        }
        if (!p.startsWith("/") || p.contains("://")) {
            throw s.error(key, s.pathOf(key) + " must be a relative path starting with '/', got '" + p + "'");
        }
        return p;
    }

    private static double positive(final Section s, final String key, final double def) {
        final double v = s.number(key, def);
        if (!(v > 0) || Double.isInfinite(v)) {
            throw s.error(key, "Input should be greater than 0 and finite, got " + s.raw(key));
        }
        return v;
    }

    /** The longest a replay may wait before its first request, or last: beyond it the timestamps are not ms. */
    static final long MAX_SCHEDULE_WAIT_MS = 3_600_000L;
    static final long MAX_SCHEDULE_SPAN_MS = 7L * 24 * 3_600_000L;

    /**
     * Refuses a trace whose schedule would wait silently for years: timestamps that look like epoch milliseconds
     * (the first replayed one far from time zero), or a gap of days between rows.
     */
    private static void plausibleSchedule(final Section s, final PhaseConfig.Schedule window, final List<Long> timestamps) {
        final long first = timestamps.stream().filter(t -> t != null && window.includes(t)).mapToLong(Long::longValue)
                .min().orElse(0);
        final long last = timestamps.stream().filter(t -> t != null && window.includes(t)).mapToLong(Long::longValue)
                .max().orElse(0);
        final long wait = first - window.zero(first);
        if (wait > MAX_SCHEDULE_WAIT_MS) {
            throw s.error("auto_offset", String.format(Locale.ROOT, "the trace's first timestamp is %d ms, so the "
                    + "first request would wait %.1f days%s; add --fixed-schedule-auto-offset (auto_offset: true) to "
                    + "start at the first row, or make the timestamps milliseconds from the start", first,
                    wait / 86_400_000.0, first > 1_000_000_000_000L ? " (it looks like epoch milliseconds)" : ""));
        }
        if (last - first > MAX_SCHEDULE_SPAN_MS) {
            throw s.error("end_offset", String.format(Locale.ROOT, "the trace spans %.1f days (timestamps %d to %d "
                    + "ms), longer than the 7-day limit; check that they are milliseconds, or replay a window with "
                    + "--fixed-schedule-start-offset / --fixed-schedule-end-offset", (last - first) / 86_400_000.0,
                    first, last));
        }
    }

    /** The profiling phase's {@code sessions}, else its {@code requests}, when a whole number above 0; else null. */
    private static Integer entriesFromLoad(final JsonNode phases) {
        JsonNode profiling = null;
        if (phases != null && phases.isObject()) {
            // keyed by phase name, or one phase's fields themselves (the single-phase shorthand)
            profiling = phases.has("profiling") ? phases.get("profiling")
                    : phases.has("requests") || phases.has("sessions") ? phases : null;
        } else if (phases != null && phases.isArray()) {
            for (final JsonNode p : phases) {
                if ("profiling".equals(p.path("kind").asText(null)) || "profiling".equals(p.path("name").asText(null))) {
                    profiling = p;
                    break;
                }
            }
        }
        if (profiling == null || !profiling.isObject()) {
            return null;
        }
        for (final String key : new String[] {"sessions", "requests"}) {
            final JsonNode v = profiling.get(key);
            if (v != null && v.canConvertToInt() && v.isIntegralNumber() && v.asInt() > 0) {
                return v.asInt();
            }
        }
        return null;
    }

    private DatasetConfig dataset(final Section d, final JsonNode phases) {
        d.allowOnly(DATASET_KEYS);
        final String type = d.string("type", d.has("public_dataset") ? "public" : d.has("path") ? "file" : "synthetic");
        if (!List.of("synthetic", "file", "public").contains(type)) {
            throw d.error("type", "expected synthetic, file or public, got '" + type + "'");
        }
        DatasetConfig.InputFile file = null;
        DatasetConfig.PublicDataset publicDataset = null;
        if (type.equals("file")) {
            final String path = d.string("path", null);
            if (path == null) {
                throw d.error("path", "a file dataset needs a path (--input-file)");
            }
            final JsonNode givenFormat = d.raw("format");
            final String formatText = d.string("format", givenFormat != null && !givenFormat.isNull() ? null
                    : FormatDetector.detect(path, d.field("path")).wireName());
            final DatasetConfig.Format format;
            try {
                format = DatasetConfig.Format.valueOf(formatText.toUpperCase(Locale.ROOT).replace('-', '_'));
            } catch (IllegalArgumentException e) {
                throw d.error("format", "unknown dataset format '" + formatText + "'; supported: single_turn, "
                        + "multi_turn, random_pool, mooncake_trace, raw_payload");
            }
            if (java.nio.file.Files.isDirectory(java.nio.file.Path.of(path)) && format != DatasetConfig.Format.RAW_PAYLOAD
                    && format != DatasetConfig.Format.RANDOM_POOL) {
                throw d.error("path", path + " is a directory: only raw_payload (a conversation per file) and "
                        + "random_pool (a pool per file) read one, not " + format.wireName());
            }
            final int blockSize = d.defaultedInteger("block_size");
            if (blockSize < 1) {
                throw d.error("block_size", "Input should be greater than or equal to 1");
            }
            final DatasetConfig.Synthesis synthesis = synthesis(d, format);
            file = new DatasetConfig.InputFile(path, format, blockSize,
                    InputFiles.timestamps(path, d.field("path"), format, synthesis), d.bool("ignore_trace_delays", false),
                    d.has("media_roots") ? d.stringList("media_roots") : List.of(), synthesis);
            fileDataset = file;
        } else if (type.equals("public")) {
            final String name = d.string("public_dataset", null);
            if (name == null || !name.equalsIgnoreCase("sharegpt")) {
                throw d.error("public_dataset", name == null ? "a public dataset needs a name (--public-dataset)"
                        : "unknown public dataset '" + name + "'; supported: sharegpt");
            }
            publicDataset = new DatasetConfig.PublicDataset("sharegpt",
                    PublicDatasets.locate(d.string("path", null), d.field("public_dataset"), System.getenv()));
        } else if (d.has("format") || d.has("path")) {
            throw d.error(d.has("format") ? "format" : "path", "only a file dataset has a path and a format");
        }
        final String samplingText = d.string("sampling", null);
        DatasetConfig.Sampling sampling = null;
        if (samplingText != null) {
            try {
                sampling = DatasetConfig.Sampling.valueOf(samplingText.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw d.error("sampling", "expected sequential, random or shuffle, got '" + samplingText + "'");
            }
            if (fileDataset != null && fileDataset.timestamped() && sampling != DatasetConfig.Sampling.SEQUENTIAL) {
                samplingTrace = d.field("sampling"); // sequential is a replay's own order (upstream's trace template)
            }
        }
        d.string("name", "default");
        // Upstream 0.13: a synthetic dataset not sized on purpose has as many entries as the profiling phase has
        // sessions (--conversation-num), else requests (--request-count), else 100.
        final Integer fromLoad = type.equals("synthetic") && !d.has("entries") ? entriesFromLoad(phases) : null;
        if (fromLoad != null) {
            d.node().put("entries", fromLoad); // what config expand prints
        }
        final int entries = fromLoad != null ? fromLoad : d.defaultedInteger("entries");
        if (entries < 1) {
            throw d.error("entries", "Input should be greater than or equal to 1");
        }
        final Section prompts = d.section("prompts");
        prompts.allowOnly(PROMPT_KEYS);
        final Integer batch = prompts.integer("batch_size", 1);
        if (batch != 1) {
            throw prompts.error("batch_size", "only a batch size of 1 is supported");
        }
        final Section isl = prompts.section("isl");
        isl.allowOnly(DIST_KEYS);
        final double islMean = isl.number("mean", 550.0);
        final double islStd = isl.defaultedNumber("stddev");
        if (!(islMean >= 1)) {
            throw isl.error("mean", "Input should be greater than or equal to 1");
        }
        if (!(islStd >= 0)) {
            throw isl.error("stddev", "Input should be greater than or equal to 0");
        }
        Double oslMean = null;
        double oslStd = 0;
        if (prompts.has("osl")) {
            final Section osl = prompts.section("osl");
            osl.allowOnly(DIST_KEYS);
            oslMean = osl.number("mean", null);
            oslStd = osl.defaultedNumber("stddev");
            if (oslMean == null || !(oslMean >= 1)) {
                throw osl.error("mean", "Input should be greater than or equal to 1");
            }
            if (!(oslStd >= 0)) {
                throw osl.error("stddev", "Input should be greater than or equal to 0");
            }
        } else if (prompts.node().has("osl")) {
            prompts.node().remove("osl");
        }
        if (d.has("random_seed")) {
            d.longValue("random_seed");
        }
        final SequenceDistribution sequences = sequences(prompts);
        final DatasetConfig.Turns turns = turns(d);
        final DatasetConfig.Prefixes prefixes = prefixes(prompts);
        final boolean synthetic = type.equals("synthetic");
        multiTurn = turns.multiTurn() || (file != null && (file.format() == DatasetConfig.Format.MULTI_TURN
                || (file.directory() && file.format() == DatasetConfig.Format.RAW_PAYLOAD)));
        if (!synthetic && (turns.multiTurn() || prefixes != DatasetConfig.Prefixes.NONE || sequences != null)) {
            throw d.error(turns.multiTurn() ? "turns" : "prompts",
                    "--session-turns-*, prefix prompts, --shared-system-prompt-length and --seq-dist shape "
                    + "synthetic prompts; a " + type + " dataset brings its own");
        }
        final Double cap = d.seconds("turn_delay_cap");
        if (cap != null && !(cap >= 0)) {
            throw d.error("turn_delay_cap", "Input should be greater than or equal to 0");
        }
        final String system = systemPrompt(prompts, prefixes);
        if (system != null && file != null && file.format() == DatasetConfig.Format.RAW_PAYLOAD) {
            throw prompts.error(prompts.has("system_prompt") ? "system_prompt" : "system_prompt_file",
                    "a raw_payload row is sent as it is: put the system message in the rows");
        }
        return new DatasetConfig(entries, islMean, islStd, oslMean, oslStd, file, publicDataset, turns, prefixes,
                sequences, sampling, cap == null ? null : Math.round(cap * 1000), rankings(d),
                SyntheticMediaBinder.bind(d), system);
    }

    /** The verbatim system prompt ({@code --system-prompt}, or the file of {@code --system-prompt-file}), or null. */
    private static String systemPrompt(final Section prompts, final DatasetConfig.Prefixes prefixes) {
        final String text = prompts.string("system_prompt", null);
        final String file = prompts.string("system_prompt_file", null);
        if (text == null && file == null) {
            return null;
        }
        final String key = text != null ? "system_prompt" : "system_prompt_file";
        if (text != null && file != null) {
            throw prompts.error("system_prompt", "--system-prompt and --system-prompt-file are mutually exclusive; "
                    + "give one");
        }
        if (prefixes.sharedSystemLength() > 0 || prefixes.poolSize() > 0) {
            throw prompts.error(key, "a verbatim system prompt and --shared-system-prompt-length or prefix prompts "
                    + "fill the same place; give one of them");
        }
        String value = text;
        if (file != null) {
            try {
                value = java.nio.file.Files.readString(java.nio.file.Path.of(file));
            } catch (java.io.IOException | java.nio.file.InvalidPathException | java.io.UncheckedIOException e) {
                throw prompts.error(key, "cannot read " + file + " as UTF-8 text: " + e.getMessage());
            }
        }
        if (value.isBlank()) {
            throw prompts.error(key, (file != null ? file + " is" : "it is") + " empty or whitespace only; leave the "
                    + "option out to run without a system prompt");
        }
        return value;
    }

    private static DatasetConfig.Rankings rankings(final Section d) {
        final Section r = d.section("rankings");
        r.allowOnly(List.of("passages", "passage_tokens", "query_tokens"));
        final double[] v = new double[6];
        final String[] keys = {"passages", "passage_tokens", "query_tokens"};
        for (int i = 0; i < 3; i++) {
            final Section dist = r.section(keys[i]);
            dist.allowOnly(DIST_KEYS);
            v[2 * i] = dist.defaultedNumber("mean");
            v[2 * i + 1] = dist.defaultedNumber("stddev");
            if (!(v[2 * i] >= 1)) {
                throw dist.error("mean", "Input should be greater than or equal to 1");
            }
            if (!(v[2 * i + 1] >= 0)) {
                throw dist.error("stddev", "Input should be greater than or equal to 0");
            }
        }
        return new DatasetConfig.Rankings(v[0], v[1], v[2], v[3], v[4], v[5]);
    }

    /**
     * {@code dataset.synthesis} of upstream's trace-replay template: the speedup and the ISL/OSL limits are applied to
     * a mooncake trace; the length multipliers only at 1.0 (upstream's radix-tree synthesis is not implemented).
     */
    private static DatasetConfig.Synthesis synthesis(final Section d, final DatasetConfig.Format format) {
        if (!d.has("synthesis")) {
            return DatasetConfig.Synthesis.NONE;
        }
        final Section s = d.section("synthesis");
        s.allowOnly(List.of("speedup_ratio", "prefix_len_multiplier", "prefix_root_multiplier",
                "prompt_len_multiplier", "output_len_multiplier", "max_isl", "max_osl"));
        if (format != DatasetConfig.Format.MOONCAKE_TRACE) {
            throw d.error("synthesis", "trace synthesis applies to a mooncake_trace file, not " + format.wireName());
        }
        for (final String key : List.of("prefix_len_multiplier", "prefix_root_multiplier", "prompt_len_multiplier",
                "output_len_multiplier")) {
            final double v = s.number(key, 1.0);
            if (v != 1.0) {
                throw s.error(key, "trace synthesis (upstream's aiperf synthesize) is not implemented: only 1.0, "
                        + "the trace as recorded, is supported");
            }
        }
        final double speedup = s.number("speedup_ratio", 1.0);
        if (!(speedup > 0) || Double.isInfinite(speedup)) {
            throw s.error("speedup_ratio", "Input should be greater than 0");
        }
        final Integer maxIsl = s.has("max_isl") ? s.integer("max_isl", 1) : null;
        final Integer maxOsl = s.has("max_osl") ? s.integer("max_osl", 1) : null;
        if ((maxIsl != null && maxIsl < 1) || (maxOsl != null && maxOsl < 1)) {
            throw s.error(maxIsl != null && maxIsl < 1 ? "max_isl" : "max_osl", "Input should be greater than or "
                    + "equal to 1");
        }
        return new DatasetConfig.Synthesis(speedup, maxIsl, maxOsl);
    }

    private static DatasetConfig.Turns turns(final Section d) {
        final Section t = d.section("turns");
        t.allowOnly(DIST_KEYS);
        final double mean = t.defaultedNumber("mean");
        final double stddev = t.defaultedNumber("stddev");
        if (!(mean >= 1)) {
            throw t.error("mean", "Input should be greater than or equal to 1");
        }
        if (!(stddev >= 0)) {
            throw t.error("stddev", "Input should be greater than or equal to 0");
        }
        final Section delay = d.section("turn_delay");
        delay.allowOnly(TURN_DELAY_KEYS);
        final double delayMean = delay.defaultedNumber("mean");
        final double delayStd = delay.defaultedNumber("stddev");
        final double ratio = delay.defaultedNumber("ratio");
        for (final String key : TURN_DELAY_KEYS) {
            final double v = key.equals("mean") ? delayMean : key.equals("stddev") ? delayStd : ratio;
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw delay.error(key, "Input should be greater than or equal to 0");
            }
        }
        if (mean == 1 && stddev == 0) {
            return DatasetConfig.Turns.SINGLE;
        }
        return new DatasetConfig.Turns(mean, stddev, delayMean, delayStd, ratio);
    }

    private static DatasetConfig.Prefixes prefixes(final Section prompts) {
        final Section pool = prompts.section("prefix_prompts");
        pool.allowOnly(PREFIX_KEYS);
        final int size = pool.integer("pool_size", 0);
        final int length = pool.integer("length", 0);
        final int system = prompts.integer("shared_system_prompt_length", 0);
        final int context = prompts.integer("user_context_prompt_length", 0);
        if (context < 0) {
            throw prompts.error("user_context_prompt_length", "Input should be greater than or equal to 0");
        }
        if (context > 0 && size > 0) {
            throw prompts.error("user_context_prompt_length", "--user-context-prompt-length and prefix prompts fill "
                    + "the same place; give one of them");
        }
        if (size < 0 || length < 0 || system < 0) {
            final String key = size < 0 ? "pool_size" : "length";
            throw system < 0 ? prompts.error("shared_system_prompt_length", "Input should be greater than or equal "
                    + "to 0") : pool.error(key, "Input should be greater than or equal to 0");
        }
        if ((size > 0) != (length > 0)) {
            throw pool.error(size > 0 ? "length" : "pool_size", "--num-prefix-prompts and --prefix-prompt-length "
                    + "go together: the prefix prompts pool is empty without both");
        }
        if (size > 0 && system > 0) {
            throw prompts.error("shared_system_prompt_length", "--shared-system-prompt-length and prefix prompts "
                    + "fill the same place; give one of them");
        }
        return size == 0 && system == 0 && context == 0 ? DatasetConfig.Prefixes.NONE
                : new DatasetConfig.Prefixes(size, length, system, context);
    }

    /** {@code sequence_distribution}: the {@code --seq-dist} text, or upstream's YAML list of entries. */
    private static SequenceDistribution sequences(final Section prompts) {
        final JsonNode raw = prompts.raw("sequence_distribution");
        if (raw == null || raw.isNull()) {
            return null;
        }
        if (raw.isArray()) {
            return SequenceDistribution.fromEntries(raw, prompts.field("sequence_distribution"));
        }
        return SequenceDistribution.parse(prompts.string("sequence_distribution", null));
    }

    private List<PhaseConfig> phases(final Section b) {
        JsonNode node = b.raw("phases");
        if (node == null || node.isNull()) {
            node = b.node().putArray("phases");
        }
        if (!node.isArray()) {
            node = ConfigShapes.phaseList(node);
            b.node().set("phases", node);
        }
        if (node.isEmpty()) {
            final ObjectNode p = ((ArrayNode) node).addObject();
            p.put("name", "profiling");
        }
        final List<PhaseConfig> out = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        int index = 0;
        for (final JsonNode p : node) {
            if (!p.isObject()) {
                throw new ConfigException("benchmark.phases[" + index + "]", "expected a mapping");
            }
            final String name = p.path("name").asText("");
            if (name.isEmpty()) {
                throw new ConfigException("benchmark.phases[" + index + "].name", "a phase in list form needs a name");
            }
            final Section s = new Section((ObjectNode) p, "benchmark.phases." + name, cliFlags, declared);
            s.allowOnly(PHASE_KEYS);
            if (!PHASE_NAME.matcher(name).matches()) {
                throw s.error("name", "must match ^[A-Za-z_][A-Za-z0-9_-]*$, got '" + name + "'");
            }
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                throw s.error("name", "phase names must be unique (case-insensitive): '" + name + "'");
            }
            out.add(phase(s, name, index));
            index++;
        }
        if (out.stream().noneMatch(p -> p.kind() == PhaseKind.PROFILING)) {
            throw new ConfigException("benchmark.phases", "at least one phase of kind profiling is required");
        }
        return List.copyOf(out);
    }

    private PhaseConfig phase(final Section s, final String name, final int index) {
        final PhaseKind implied = name.equals("warmup") ? PhaseKind.WARMUP
                : name.equals("profiling") ? PhaseKind.PROFILING : null;
        final String kindText = s.string("kind", implied == null ? null : implied.wireName());
        if (kindText == null) {
            throw s.error("kind", "a phase with a custom name needs kind: warmup or profiling");
        }
        final PhaseKind kind;
        switch (kindText.toLowerCase(Locale.ROOT)) {
            case "warmup" -> kind = PhaseKind.WARMUP;
            case "profiling" -> kind = PhaseKind.PROFILING;
            default -> throw s.error("kind", "expected warmup or profiling, got '" + kindText + "'");
        }
        if (implied != null && implied != kind) {
            throw s.error("kind", "phase '" + name + "' must have kind " + implied.wireName());
        }
        if (s.has("exclude_from_results") && s.bool("exclude_from_results", false) != (kind == PhaseKind.WARMUP)) {
            throw s.error("exclude_from_results", "must be " + (kind == PhaseKind.WARMUP) + " for a "
                    + kind.wireName() + " phase");
        }
        final Integer concurrency = s.integer("concurrency", null);
        if (concurrency != null && concurrency < 1) {
            throw s.error("concurrency", "Input should be greater than or equal to 1");
        }
        final RateSeries series = s.has("rate_series") ? RateSeries.parse(s.raw("rate_series"), s.field("rate_series"))
                : null;
        if (series != null && s.has("rate")) {
            throw s.error("rate_series", "give --request-rate or --request-rate-series, not both: the series sets "
                    + "the rate");
        }
        final Double rate = series != null ? Double.valueOf(series.peak()) : s.number("rate", null);
        final Double smoothness = s.number("smoothness", null);
        // A trace whose rows carry timestamps replays on them unless another timing is asked for (AIPerf).
        final boolean replay = kind == PhaseKind.PROFILING && fileDataset != null && fileDataset.timestamped();
        final String typeText = s.string("type", rate != null ? (smoothness != null ? "gamma" : "poisson")
                : replay ? "fixed_schedule" : "concurrency");
        final LoadType type = LoadType.parse(s.field("type"), typeText);
        s.node().put("type", type.wireName());
        PhaseConfig.Schedule schedule = null;
        if (type == LoadType.FIXED_SCHEDULE) {
            if (fileDataset == null || !fileDataset.timestamped()) {
                throw s.error("type", "--fixed-schedule needs a dataset whose rows carry timestamps (--input-file)");
            }
            final Long start = s.longValue("start_offset");
            final Long end = s.longValue("end_offset");
            if ((start != null && start < 0) || (end != null && end < 0)) {
                throw s.error(start != null && start < 0 ? "start_offset" : "end_offset",
                        "Input should be greater than or equal to 0");
            }
            if (start != null && end != null && end < start) {
                throw s.error("end_offset", "must not be before start_offset");
            }
            schedule = new PhaseConfig.Schedule(s.bool("auto_offset", false), start, end);
        } else if (s.has("auto_offset") || s.has("start_offset") || s.has("end_offset")) {
            throw s.error(s.has("auto_offset") ? "auto_offset" : s.has("start_offset") ? "start_offset" : "end_offset",
                    "--fixed-schedule-* can only be used with --fixed-schedule");
        }
        if (type.needsRate()) {
            if (rate == null) {
                throw s.error("rate", "rate-controlled phases require rate or rate_series");
            }
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw s.error("rate", "Input should be greater than 0");
            }
        } else if (type == LoadType.USER_CENTRIC) {
            userCentric(s, rate);
        } else if (rate != null) {
            throw s.error("rate", "Extra inputs are not permitted: a concurrency phase has no rate");
        }
        if (type != LoadType.USER_CENTRIC && s.has("users")) {
            throw s.error("users", "--num-users can only be used with --user-centric-rate");
        }
        if (smoothness != null) {
            if (type != LoadType.GAMMA) {
                throw s.error("smoothness", "--arrival-smoothness can only be used with --arrival-pattern gamma");
            }
            if (!(smoothness > 0)) {
                throw s.error("smoothness", "Input should be greater than 0");
            }
        }
        Integer requests = s.integer("requests", null);
        if (requests != null && requests < 1) {
            throw s.error("requests", "Input should be greater than 0");
        }
        final Double duration = s.seconds("duration");
        if (duration != null && !(duration > 0)) {
            throw s.error("duration", "Input should be greater than 0");
        }
        final Double grace = s.seconds("grace_period");
        if (grace != null) {
            if (duration == null && kind == PhaseKind.PROFILING) {
                // a warmup's grace also bounds the wait after a count-bounded warmup (--warmup-grace-period)
                throw s.error("grace_period", "--benchmark-grace-period can only be used with duration-based "
                        + "benchmarking");
            }
            if (!(grace >= 0)) {
                throw s.error("grace_period", "Input should be greater than or equal to 0");
            }
        }
        final boolean seamless = s.bool("seamless", false);
        if (seamless && index == 0) {
            throw s.error("seamless", "seamless is not allowed on the first phase");
        }
        Integer sessions = s.integer("sessions", null);
        if (sessions != null && sessions < 1) {
            throw s.error("sessions", "Input should be greater than 0");
        }
        if (sessions != null && requests != null) {
            throw s.error("sessions", "Both a request-count and number of conversations are set; give one of them");
        }
        if (type == LoadType.FIXED_SCHEDULE && samplingTrace != null) {
            throw new ConfigException(samplingTrace, "Dataset sampling strategy is not compatible with fixed schedule "
                    + "mode");
        }
        if (schedule != null) {
            final PhaseConfig.Schedule window = schedule;
            final long rows = fileDataset.timestampsMs().stream().filter(t -> t != null && window.includes(t)).count();
            if (rows == 0) {
                throw s.error("start_offset", "no row of the trace falls between the schedule's offsets");
            }
            plausibleSchedule(s, window, fileDataset.timestampsMs());
            if (requests == null) {
                requests = (int) rows; // a replay sends its rows, each once
                s.node().put("requests", requests);
            }
        } else if (requests == null && sessions == null && duration == null && fileDataset != null
                && kind == PhaseKind.PROFILING) {
            if (fileDataset.format() == DatasetConfig.Format.MULTI_TURN || (fileDataset.directory()
                    && fileDataset.format() == DatasetConfig.Format.RAW_PAYLOAD)) {
                sessions = fileDataset.timestampsMs().size(); // every conversation of the file once, all its turns
                s.node().put("sessions", sessions);
            } else if (fileDataset.directory()) {
                // random_pool pools: conversations are drawn, so the run takes the count's usual default
            } else {
                requests = fileDataset.timestampsMs().size(); // every row of the file once
                s.node().put("requests", requests);
            }
        }
        if (requests == null && sessions == null && duration == null) {
            // Upstream's default: enough requests to fill the closed loop twice, at least 10.
            final int fill = type == LoadType.USER_CENTRIC ? s.integer("users", 1)
                    : concurrency == null ? 1 : concurrency;
            requests = Math.max(DEFAULT_REQUEST_COUNT, 2 * fill);
            s.node().put("requests", requests);
            warnings.add("phase '" + name + "' has no stop condition (requests, sessions or duration); defaulting to "
                    + requests + " requests (at least 10, twice the concurrency). Set --request-count, "
                    + "--conversation-num or --benchmark-duration.");
        }
        if (type == LoadType.CONCURRENCY && concurrency == null) {
            s.node().put("concurrency", 1);
        }
        final Integer width = type == LoadType.CONCURRENCY && concurrency == null ? Integer.valueOf(1) : concurrency;
        final Double shape = type == LoadType.GAMMA && smoothness == null ? Double.valueOf(1.0) : smoothness;
        final Double concurrencyRamp = s.seconds("concurrency_ramp_duration");
        final Double rateRamp = s.seconds("rate_ramp_duration");
        if (concurrencyRamp != null && (!(concurrencyRamp > 0) || width == null)) {
            throw s.error("concurrency_ramp_duration", concurrencyRamp > 0 ? "a concurrency ramp needs a concurrency "
                    + "(--concurrency)" : "Input should be greater than 0");
        }
        if (rateRamp != null && type == LoadType.USER_CENTRIC) {
            throw s.error("rate_ramp_duration", "--request-rate-ramp-duration cannot be used with --user-centric-rate");
        }
        if (rateRamp != null && (!(rateRamp > 0) || !type.isRate() || type == LoadType.FIXED_SCHEDULE)) {
            throw s.error("rate_ramp_duration", rateRamp > 0 ? "a rate ramp needs a request rate (--request-rate)"
                    : "Input should be greater than 0");
        }
        final Integer prefill = s.integer("prefill_concurrency", null);
        if (prefill != null) {
            if (prefill < 1) {
                throw s.error("prefill_concurrency", "Input should be greater than or equal to 1");
            }
            if (width != null && prefill > width) {
                throw s.error("prefill_concurrency", "must not exceed the concurrency (" + width + ")");
            }
            if (!streaming) {
                throw s.error("prefill_concurrency", "needs --streaming: a request leaves prefill with its first "
                        + "token");
            }
        }
        Double prefillRamp = s.seconds("prefill_concurrency_ramp_duration");
        if (prefillRamp != null && !(prefillRamp > 0)) {
            throw s.error("prefill_concurrency_ramp_duration", "Input should be greater than 0");
        }
        if (prefillRamp != null && prefill == null) {
            // upstream ramps only a prefill cap that is set, and ignores the ramp otherwise (its ramping template)
            warnings.add(s.field("prefill_concurrency_ramp_duration") + " has no effect without a prefill "
                    + "concurrency (--prefill-concurrency): there is no prefill cap to ramp");
            prefillRamp = null;
        }
        final Double failedThreshold = s.number("failed_request_threshold", null);
        if (failedThreshold != null && !(failedThreshold >= 0 && failedThreshold <= 1)) {
            throw s.error("failed_request_threshold", "Input should be a ratio between 0 and 1");
        }
        final Integer users = type == LoadType.USER_CENTRIC ? s.integer("users", null) : null;
        if (users != null && requests != null && requests < users) {
            throw s.error("requests", "a user-centric phase needs at least one request per user (" + users
                    + " users)");
        }
        if (users != null && width != null && width < users) {
            warnings.add("phase '" + name + "': --concurrency " + width + " is below --num-users " + users + ": only "
                    + width + " users can hold a conversation at once, and the others starve");
        }
        if (series != null && (!type.needsRate() || rateRamp != null)) {
            throw s.error("rate_series", rateRamp != null ? "the series is the ramp: remove --request-rate-ramp-"
                    + "duration" : "needs an open-loop arrival pattern (constant, poisson or gamma), not "
                    + type.wireName());
        }
        return new PhaseConfig(name, kind, type, width, rate, shape, requests, sessions, duration, grace, seamless,
                schedule, concurrencyRamp, rateRamp, prefill, failedThreshold, users, prefillRamp, series,
                cancellation(s, kind));
    }

    /**
     * A phase's own {@code cancellation: {rate, delay}} (upstream's per-phase form; {@code runtime.request_cancellation}
     * is the run's). {@code --request-cancellation-rate} on the command line wins for the profiling phases, as
     * upstream's flag overrides its profiling phase.
     */
    private PhaseConfig.Cancellation cancellation(final Section s, final PhaseKind kind) {
        if (!s.has("cancellation")) {
            return null;
        }
        final Section c = s.section("cancellation");
        c.allowOnly(List.of("rate", "delay"));
        if (!c.has("rate")) {
            throw c.error("rate", "Field required: the percentage of requests to cancel (0-100)");
        }
        final double rate = c.number("rate", 0.0);
        final double delay = c.number("delay", 0.0);
        if (!(rate >= 0 && rate <= 100)) {
            throw c.error("rate", "Input should be a percentage between 0 and 100");
        }
        if (!(delay >= 0) || Double.isInfinite(delay)) {
            throw c.error("delay", "Input should be greater than or equal to 0");
        }
        if (kind == PhaseKind.PROFILING && cliFlags.containsKey("benchmark.runtime.request_cancellation.rate")) {
            return null;
        }
        return new PhaseConfig.Cancellation(rate, delay);
    }

    /** AIPerf's user-centric rules: N users and a rate, over multi-turn conversations. */
    private void userCentric(final Section s, final Double rate) {
        final Integer users = s.integer("users", null);
        if (users == null) {
            throw s.error("users", "--user-centric-rate requires --num-users to be set");
        }
        if (users < 1) {
            throw s.error("users", "Input should be greater than or equal to 1");
        }
        if (rate == null) {
            throw s.error("rate", "a user_centric phase needs a rate (--user-centric-rate)");
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw s.error("rate", "Input should be greater than 0");
        }
        if (!multiTurn) {
            throw new ConfigException("benchmark.dataset.turns", "--user-centric-rate requires multi-turn "
                    + "conversations (--session-turns-mean >= 2)");
        }
    }

    private static Map<String, Double> slos(final Section s) {
        final Map<String, Double> out = new LinkedHashMap<>();
        final Iterator<Map.Entry<String, JsonNode>> it = s.node().properties().iterator();
        while (it.hasNext()) {
            final Map.Entry<String, JsonNode> e = it.next();
            final String tag = MetricAliases.resolve(e.getKey());
            if (!SLO_LARGER_IS_BETTER.containsKey(tag)) {
                throw s.error(e.getKey(), "unknown goodput metric" + Suggestions.didYouMean(e.getKey(),
                        SLO_LARGER_IS_BETTER.keySet()) + "; valid: " + new java.util.TreeSet<>(SLO_LARGER_IS_BETTER.keySet()));
            }
            if (!e.getValue().isNumber()) {
                throw s.error(e.getKey(), "expected a number in the metric's display unit");
            }
            out.put(tag, e.getValue().doubleValue());
        }
        return out;
    }
}
