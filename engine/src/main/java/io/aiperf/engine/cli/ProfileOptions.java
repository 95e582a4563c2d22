package io.aiperf.engine.cli;

import static io.aiperf.engine.cli.HelpTopic.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.DeclaredOptions;
import io.aiperf.engine.config.DeclaredOptions.Kind;
import io.aiperf.engine.config.Durations;
import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.log.RunLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options of {@code aiperf profile} with AIPerf's names, aliases and defaults (AIPerf's CLI options docs). Every
 * option is boxed and defaults to null, so only typed values reach the {@link CliOverlay}. A field with a
 * {@link Yaml} line is a row of the option table: its key, default and help's "Default:" come from that line alone
 * (src-docs/adding-an-option.md); {@link #overlay()} sets the keys of the flags that need more than their value.
 * Each field's {@link Topic} places it in the help; the help lists a topic's options in the order declared here.
 * <p>
 * It is over 400 lines because it declares every upstream option of {@code profile}, each with its help text.
 */
public final class ProfileOptions {
    /** Built when a flag needs it: an ObjectMapper is a fifth of a second of class loading at start-up. */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    private static final String CONCURRENCY = "benchmark.phases.profiling.concurrency";
    private static final String RATE = "benchmark.phases.profiling.rate";
    /** The sweeping rows {@link #load} sets itself: a capacity search's point sets its knob there. */
    private static final List<String> LOAD_AXES = List.of(CONCURRENCY, RATE);

    /** Option classes a command line added to these ({@link #add}), each a table of its own. */
    private final List<Object> added = new ArrayList<>();

    @Topic(ENDPOINT)
    @Option(names = {"-m", "--model", "--model-names"}, paramLabel = "MODEL", description = "Model name(s), comma separated. Default: the one model the server lists at /v1/models.")
    String model;
    @Topic(ENDPOINT)
    @Yaml(value = "benchmark.endpoint.urls", defaultValue = "http://localhost:8000")
    @Option(names = {"-u", "--url"}, paramLabel = "URL", description = "Server base URL; repeatable.")
    List<String> urls;
    @Topic(ENDPOINT)
    @Yaml(value = "benchmark.endpoint.type", defaultValue = "chat")
    @Option(names = "--endpoint-type", paramLabel = "TYPE",
            completionCandidates = Candidates.EndpointTypes.class, description = "chat, completions, embeddings, "
            + "chat_embeddings, nim_embeddings, responses, messages (Anthropic), huggingface_generate, nim_rankings, "
            + "hf_tei_rankings, cohere_rankings, template, image_retrieval (the rows' images), image_generation, "
            + "solido_rag or raw (raw_payload rows as written).")
    String endpointType;
    @Topic(ENDPOINT)
    @Yaml("benchmark.endpoint.path")
    @Option(names = {"--custom-endpoint", "--endpoint"}, paramLabel = "PATH", description = "Replace the endpoint path (\"\" appends nothing).")
    String customEndpoint;
    @Topic(ENDPOINT)
    @Yaml("benchmark.endpoint.streaming")
    @Option(names = "--streaming", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL", description = "Stream responses (SSE).")
    Boolean streaming;

    @Topic(ENDPOINT)
    @Yaml("benchmark.endpoint.ssl_ca_file")
    @Option(names = "--ssl-ca-file", paramLabel = "FILE", description = "Trust the CA certificates in this PEM file "
            + "(instead of the JDK's) for https targets and control calls.")
    String sslCaFile;

    @Topic(ENDPOINT)
    @Yaml("benchmark.endpoint.ssl_cert_file")
    @Option(names = "--ssl-cert-file", paramLabel = "FILE", description = "Client certificate (PEM, with its chain) "
            + "for mutual TLS, with --ssl-key-file; sent to https targets and control calls.")
    String sslCertFile;

    @Topic(ENDPOINT)
    @Yaml("benchmark.endpoint.ssl_key_file")
    @Option(names = "--ssl-key-file", paramLabel = "FILE", description = "The private key of --ssl-cert-file "
            + "(PEM, unencrypted PKCS#8 or PKCS#1 RSA).")
    String sslKeyFile;

    @Topic(ENDPOINT)
    @Option(names = "--http2", description = "Send inference requests as HTTP/2 (AIPerf: http2): ALPN h2 over https, "
            + "prior knowledge over http. Default: HTTP/1.1 on both.")
    Boolean http2;

    @Topic(ENDPOINT)
    @Yaml("benchmark.endpoint.proxy")
    @Option(names = "--proxy", paramLabel = "URL", description = "Send all traffic through this HTTP proxy "
            + "(http://[user:password@]host[:port]): http requests in absolute form, https through CONNECT. "
            + "Overrides HTTP_PROXY/HTTPS_PROXY; NO_PROXY still applies; 'none' ignores the environment.")
    String proxy;

    @Topic(ENDPOINT)
    @Option(names = "--ssl-insecure", description = "Do not verify https certificates or host names (AIPerf: "
            + "AIPERF_HTTP_SSL_VERIFY=false). Prints a warning on every run.")
    Boolean sslInsecure;

    @Topic(HTTP)
    @Yaml(value = "benchmark.runtime.max_event_bytes", defaultValue = "" + RunLimits.DEFAULT_MAX_EVENT_BYTES)
    @Option(names = "--max-event-bytes", paramLabel = "BYTES", description = "The largest SSE event accepted; a "
            + "larger one fails its request as too large.")
    Long maxEventBytes;

    @Topic(HTTP)
    @Yaml(value = "benchmark.runtime.max_response_bytes", defaultValue = "" + RunLimits.DEFAULT_MAX_RESPONSE_BYTES)
    @Option(names = "--max-response-bytes", paramLabel = "BYTES", description = "The largest response accepted, "
            + "streamed or not; a larger one fails its request as too large.")
    Long maxResponseBytes;

    @Topic(HTTP)
    @Yaml(value = "benchmark.runtime.max_head_bytes", defaultValue = "" + RunLimits.DEFAULT_MAX_HEAD_BYTES)
    @Option(names = "--max-response-head-bytes", paramLabel = "BYTES", description = "The largest response head "
            + "(status line and headers) accepted; a larger one fails its request at once.")
    Long maxResponseHeadBytes;

    @Topic(HTTP)
    @Option(names = "--no-retry-unsent", description = "Never send a request again, not even one whose kept-alive "
            + "connection the server closed before any byte of the answer (by default such a request is resent once, "
            + "on a new connection, and counted in client_health.transport.retries).")
    Boolean noRetryUnsent;

    @Topic(HTTP)
    @Yaml("benchmark.runtime.http_client")
    @Option(names = "--http-client", paramLabel = "CLIENT", description = "What carries HTTP/1.1 inference "
            + "requests, http and https: lean (the engine's own HTTP/1.1 client, the default) or apache (Apache "
            + "HttpClient, as --http2 always uses).")
    String httpClient;

    @Topic(HTTP)
    @Yaml("benchmark.endpoint.connection_reuse")
    @Option(names = "--connection-reuse-strategy", paramLabel = "STRATEGY", description = "When a request may reuse "
            + "a connection: pooled (kept-alive connections shared by all requests, the default; a server seen "
            + "closing them after its answers gets a new connection per request), never (a new connection per "
            + "request), sticky-user-sessions (a conversation keeps its connection across its turns).")
    String connectionReuseStrategy;

    @Topic(HTTP)
    @Option(names = "--no-preconnect", description = "Do not open the first phase's connections before its first "
            + "request (by default they are opened first, so no request waits for a connect).")
    Boolean noPreconnect;

    @Topic(ENDPOINT)
    @Yaml(value = "benchmark.endpoint.timeout", defaultValue = "21600")
    @Option(names = "--request-timeout-seconds", paramLabel = "SECONDS", converter = DurationConverter.class, description = "Request timeout.")
    Double requestTimeoutSeconds;
    @Topic(ENDPOINT)
    @Yaml("benchmark.endpoint.wait_for_model_timeout")
    @Option(names = "--wait-for-model-timeout", paramLabel = "SECONDS", converter = DurationConverter.class,
            description = "Wait up to this long for the server to be ready before any load (see "
            + "--wait-for-model-mode); exit 1 if it never is. Default: 0, no waiting.")
    Double waitForModelTimeout;
    @Topic(ENDPOINT)
    @Yaml(value = "benchmark.endpoint.wait_for_model_interval", defaultValue = "5")
    @Option(names = "--wait-for-model-interval", paramLabel = "SECONDS", converter = DurationConverter.class,
            description = "The pause between two readiness checks.")
    Double waitForModelInterval;
    @Topic(ENDPOINT)
    @Yaml(value = "benchmark.endpoint.wait_for_model_mode", defaultValue = "inference")
    @Option(names = "--wait-for-model-mode", paramLabel = "READINESS", description = "inference (a one-token "
            + "request answers below 500), models (GET /v1/models lists the model; on a 404 the base URL answers "
            + "below 500) or both.")
    String waitForModelMode;
    @Topic(ENDPOINT)
    @Yaml("benchmark.endpoint.api_key")
    @Option(names = "--api-key", paramLabel = "KEY", description = "Sent as Authorization: Bearer KEY. Never written to any file.")
    String apiKey;
    @Topic(ENDPOINT)
    @Option(names = "--api-key-env", paramLabel = "VAR", description = "Read the API key from this environment variable, so it stays off the command line (CI).")
    String apiKeyEnv;
    @Topic(ENDPOINT)
    @Option(names = {"-H", "--header"}, paramLabel = "NAME:VALUE", description = "Extra header (or a JSON object); repeatable.")
    List<String> headers;
    @Topic(ENDPOINT)
    @Option(names = "--extra-inputs", paramLabel = "KEY:VALUE", description = "Body field (or a JSON object) merged into every request; repeatable.")
    List<String> extraInputs;
    @Topic(ENDPOINT)
    @Yaml("benchmark.endpoint.use_server_token_count")
    @Option(names = "--use-server-token-count", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL", description = "Take token counts from the server's usage.")
    Boolean useServerTokenCount;
    @Topic(ENDPOINT)
    @Yaml("benchmark.endpoint.per_chunk_usage")
    @Option(names = "--per-chunk-usage", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL", description = "Ask "
            + "for usage on every streamed chunk (stream_options.continuous_usage_stats), so ITL leaves out the "
            + "tokens of the first chunk, not one token; streaming chat with --use-server-token-count only.")
    Boolean perChunkUsage;
    @Topic(ENDPOINT)
    @Yaml("benchmark.endpoint.use_legacy_max_tokens")
    @Option(names = "--use-legacy-max-tokens", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL", description = "Send max_tokens instead of max_completion_tokens for chat.")
    Boolean useLegacyMaxTokens;

    @Topic(LOAD)
    @Yaml(value = CONCURRENCY, sweeps = true, kind = Kind.INTEGER)
    @Option(names = "--concurrency", paramLabel = "N", description = "Concurrent requests (closed loop), or the ceiling with --request-rate. A comma list sweeps.")
    String concurrency;
    @Topic(LOAD)
    @Yaml(value = RATE, sweeps = true, kind = Kind.NUMBER)
    @Option(names = "--request-rate", paramLabel = "RPS", description = "Requests per second (open loop). A comma list sweeps.")
    String requestRate;
    @Topic(LOAD)
    @Option(names = {"--arrival-pattern", "--request-rate-mode"}, paramLabel = "PATTERN",
            completionCandidates = Candidates.ArrivalPatterns.class, description = "constant, poisson, gamma, or concurrency_burst (the closed loop). Default: poisson.")
    String arrivalPattern;
    @Topic(LOAD)
    @Yaml("benchmark.phases.profiling.smoothness")
    @Option(names = {"--arrival-smoothness", "--vllm-burstiness"}, paramLabel = "SHAPE", description = "Gamma shape; implies gamma.")
    Double arrivalSmoothness;
    @Topic(LOAD)
    @Option(names = "--user-centric-rate", paramLabel = "QPS", description = "User-centric mode: --num-users users "
            + "share this rate, each sending its next turn num-users / QPS seconds after its previous one (multi-turn "
            + "conversations: --session-turns-mean 2 or more).")
    Double userCentricRate;
    @Topic(LOAD)
    @Yaml("benchmark.phases.profiling.users")
    @Option(names = "--num-users", paramLabel = "N", description = "The simulated users of --user-centric-rate.")
    Integer numUsers;
    @Topic(LOAD)
    @Yaml(value = "benchmark.phases.profiling.requests", sweeps = true, kind = Kind.INTEGER)
    @Option(names = {"--request-count", "--num-requests"}, paramLabel = "N", description = "Requests to send. Default: max(10, 2 x concurrency) when nothing else bounds the run. A comma list sweeps.")
    String requestCount;
    @Topic(LOAD)
    @Yaml(value = "benchmark.phases.profiling.duration", sweeps = true, kind = Kind.SECONDS)
    @Option(names = "--benchmark-duration", paramLabel = "SECONDS", description = "Stop sending after this long: seconds, or with a unit (250ms, 10s, 5m, 1h), as every duration flag takes. A comma list sweeps.")
    String benchmarkDuration;
    @Topic(LOAD)
    @Option(names = "--benchmark-grace-period", paramLabel = "SECONDS", description = "Wait for in-flight requests after the duration. Default: 30.")
    String benchmarkGracePeriod;
    @Topic(LOAD)
    @Yaml(value = "benchmark.runtime.max_error_rate", defaultValue = "100")
    @Option(names = "--max-error-rate", paramLabel = "PCT", description = "Fail a cell whose share of failed "
            + "requests is above this percentage (0-100). A cell with no valid request always fails.")
    Double maxErrorRate;
    @Topic(LOAD)
    @Yaml("benchmark.phases.profiling.failed_request_threshold")
    @Option(names = "--failed-request-threshold", paramLabel = "RATIO", description = "Stop the run early, and fail "
            + "it, once more than this share (0-1) of the profiling requests failed, counted from max(concurrency, "
            + "10) completed requests on. Partial results are written.")
    Double failedRequestThreshold;
    @Topic(WARMUP)
    @Option(names = {"--warmup-request-count", "--num-warmup-requests"}, paramLabel = "N", description = "Warmup requests before profiling (> 0).")
    Integer warmupRequestCount;
    @Topic(WARMUP)
    @Option(names = "--warmup-duration", paramLabel = "SECONDS", converter = DurationConverter.class, description = "Warmup duration (> 0).")
    Double warmupDuration;

    @Topic(INPUT)
    @Option(names = {"--isl", "--synthetic-input-tokens-mean", "--prompt-input-tokens-mean"}, paramLabel = "TOKENS", description = "Mean input length. Default: 550. A comma list sweeps.")
    String isl;
    @Topic(INPUT)
    @Yaml(value = "benchmark.dataset.prompts.isl.stddev", defaultValue = "0")
    @Option(names = {"--isl-stddev", "--synthetic-input-tokens-stddev", "--prompt-input-tokens-stddev"}, paramLabel = "TOKENS", description = "Input length stddev.")
    Double islStddev;
    @Topic(INPUT)
    @Option(names = {"--osl", "--output-tokens-mean", "--prompt-output-tokens-mean"}, paramLabel = "TOKENS", description = "Mean output cap (sent as max_completion_tokens / max_tokens). A comma list sweeps.")
    String osl;
    @Topic(INPUT)
    @Yaml(value = "benchmark.dataset.prompts.osl.stddev", defaultValue = "0")
    @Option(names = {"--osl-stddev", "--output-tokens-stddev", "--prompt-output-tokens-stddev"}, paramLabel = "TOKENS", description = "Output cap stddev.")
    Double oslStddev;
    @Topic(INPUT)
    @Yaml(value = "benchmark.dataset.entries", defaultValue = "100")
    @Option(names = {"--num-dataset-entries", "--num-prompts"}, paramLabel = "N", description = "Distinct prompts. Default, as upstream 0.13: --conversation-num, else --request-count, else 100.")
    Integer numDatasetEntries;
    @Topic(INPUT)
    @Option(names = "--random-seed", paramLabel = "SEED", description = "Seed for prompts and arrivals.")
    Long randomSeed;
    @Topic(INPUT)
    @Option(names = "--input-file", paramLabel = "FILE", description = "Prompts from this JSONL file instead of "
            + "synthetic ones (see --custom-dataset-type); every row is sent once unless a count or duration is set. "
            + "A directory: raw_payload conversations or random_pool pools, one per .jsonl file.")
    String inputFile;

    @Topic(INPUT)
    @Yaml("benchmark.dataset.format")
    @Option(names = "--custom-dataset-type", paramLabel = "FORMAT",
            completionCandidates = Candidates.DatasetTypes.class, description = "The --input-file format: single_turn "
            + "(text per row), multi_turn (session_id and turns per row), random_pool (rows sampled with "
            + "replacement), mooncake_trace (input_length, output_length, hash_ids, timestamp) or raw_payload (a "
            + "complete request body per row, sent as written). Default: told from the first row, as upstream does.")
    String customDatasetType;

    @Topic(INPUT)
    @Option(names = "--public-dataset", paramLabel = "NAME", description = "A public dataset from a local copy: "
            + "sharegpt (the file given with --input-file, else the dataset cache).")
    String publicDataset;

    @Topic(INPUT)
    @Yaml("benchmark.dataset.sampling")
    @Option(names = "--dataset-sampling-strategy", paramLabel = "STRATEGY",
            completionCandidates = Candidates.SamplingStrategies.class, description = "How sessions pick "
            + "conversations: sequential, random (with replacement) or shuffle (each once, then reshuffled). "
            + "Default: shuffle for random_pool and public data, else sequential.")
    String datasetSamplingStrategy;

    @Topic(INPUT)
    @Yaml("benchmark.dataset.prompts.sequence_distribution")
    @Option(names = {"--seq-dist", "--sequence-distribution"}, paramLabel = "DIST", description = "(ISL, OSL) pairs "
            + "by probability in percent, e.g. '256,128:40;1024,512:60' ('ISL|SD,OSL|SD:P' adds spread).")
    String seqDist;

    @Topic(SESSIONS)
    @Yaml("benchmark.phases.profiling.sessions")
    @Option(names = {"--conversation-num", "--num-conversations", "--num-sessions"}, paramLabel = "N",
            description = "Sessions to run, each with all its turns (instead of --request-count).")
    Integer conversationNum;

    @Topic(SESSIONS)
    @Yaml(value = "benchmark.dataset.turns.mean", defaultValue = "1")
    @Option(names = {"--session-turns-mean", "--conversation-turn-mean"}, paramLabel = "N", description = "Mean "
            + "turns per synthetic conversation.")
    Double sessionTurnsMean;

    @Topic(SESSIONS)
    @Yaml(value = "benchmark.dataset.turns.stddev", defaultValue = "0")
    @Option(names = {"--session-turns-stddev", "--conversation-turn-stddev"}, paramLabel = "N", description = "Turns "
            + "stddev.")
    Double sessionTurnsStddev;

    @Topic(SESSIONS)
    @Yaml(value = "benchmark.dataset.turn_delay.mean", defaultValue = "0")
    @Option(names = {"--session-turn-delay-mean", "--conversation-turn-delay-mean"}, paramLabel = "MS",
            description = "Mean think time between a reply and the next turn.")
    Double sessionTurnDelayMean;

    @Topic(SESSIONS)
    @Yaml(value = "benchmark.dataset.turn_delay.stddev", defaultValue = "0")
    @Option(names = {"--session-turn-delay-stddev", "--conversation-turn-delay-stddev"}, paramLabel = "MS",
            description = "Think time stddev.")
    Double sessionTurnDelayStddev;

    @Topic(SESSIONS)
    @Yaml(value = "benchmark.dataset.turn_delay.ratio", defaultValue = "1.0")
    @Option(names = {"--session-delay-ratio", "--conversation-turn-delay-ratio"}, paramLabel = "RATIO",
            description = "Multiplies every think time.")
    Double sessionDelayRatio;

    @Topic(INPUT)
    @Yaml("benchmark.dataset.prompts.prefix_prompts.pool_size")
    @Option(names = {"--num-prefix-prompts", "--prompt-prefix-pool-size", "--prefix-prompt-pool-size"}, paramLabel = "N", description = "Prefix prompts in the pool; each "
            + "conversation's first turn starts with one of them.")
    Integer numPrefixPrompts;

    @Topic(INPUT)
    @Yaml("benchmark.dataset.prompts.prefix_prompts.length")
    @Option(names = {"--prefix-prompt-length", "--prompt-prefix-length"}, paramLabel = "TOKENS", description = "Tokens of each prefix prompt.")
    Integer prefixPromptLength;

    @Topic(INPUT)
    @Yaml("benchmark.dataset.prompts.shared_system_prompt_length")
    @Option(names = "--shared-system-prompt-length", paramLabel = "TOKENS", description = "One synthetic system "
            + "prompt of this length shared by every conversation.")
    Integer sharedSystemPromptLength;

    @Topic(INPUT)
    @Yaml("benchmark.dataset.prompts.system_prompt")
    @Option(names = "--system-prompt", paramLabel = "TEXT", description = "A verbatim system prompt sent with every "
            + "conversation (prepended to a dataset's own system message); --isl still sizes the user prompt.")
    String systemPrompt;

    @Topic(INPUT)
    @Yaml("benchmark.dataset.prompts.system_prompt_file")
    @Option(names = "--system-prompt-file", paramLabel = "FILE", description = "As --system-prompt, the text read "
            + "from a UTF-8 file at startup.")
    String systemPromptFile;

    @Topic(WARMUP)
    @Option(names = "--num-warmup-sessions", paramLabel = "N", description = "Warm up with this many sessions.")
    Integer numWarmupSessions;

    @Topic(INPUT)
    @Yaml("benchmark.dataset.prompts.batch_size")
    @Option(names = {"-b", "--prompt-batch-size", "--batch-size-text", "--batch-size"}, paramLabel = "N",
            description = "Prompts per request; only 1 is supported.")
    Integer promptBatchSize;

    @Topic(ENDPOINT)
    @Yaml(value = "benchmark.endpoint.url_strategy", defaultValue = "round_robin")
    @Option(names = "--url-strategy", paramLabel = "STRATEGY", description = "How requests pick among several --url: "
            + "round_robin (per session).")
    String urlStrategy;

    @Topic(NO_EFFECT)
    @Option(names = {"--transport", "--transport-type"}, paramLabel = "TRANSPORT", description = "http (the only "
            + "transport; https URLs use TLS).")
    String transport;

    @Topic(NO_EFFECT)
    @Option(names = "--request-content-type", paramLabel = "TYPE", description = "application/json (the only body "
            + "encoding).")
    String requestContentType;

    @Topic(NO_EFFECT)
    @Option(names = "--prompt-corpus", paramLabel = "CORPUS", description = "sonnet (accepted: synthetic prompts come "
            + "from this engine's own English corpus, cut to exact token counts).")
    String promptCorpus;

    @Topic(NO_EFFECT)
    @Option(names = "--cache-bust", paramLabel = "WHERE", description = "none (the only mode; use --reset-kv-cache).")
    String cacheBust;

    @Topic(NO_EFFECT)
    @Option(names = {"--workers-max", "--max-workers"}, paramLabel = "N", description = "Accepted, no effect: one "
            + "process with non-blocking I/O replaces upstream's worker processes.")
    Integer workersMax;

    @Topic(NO_EFFECT)
    @Option(names = {"--record-processor-service-count", "--record-processors"}, paramLabel = "N",
            description = "Accepted, no effect: records are processed by one thread off the I/O threads.")
    Integer recordProcessors;

    @Topic(NO_EFFECT)
    @Option(names = "--zmq-host", paramLabel = "HOST", description = "Accepted, no effect: no ZMQ here.")
    String zmqHost;

    @Topic(NO_EFFECT)
    @Option(names = "--zmq-ipc-path", paramLabel = "PATH", description = "Accepted, no effect: no ZMQ here.")
    String zmqIpcPath;

    @Topic(NO_EFFECT)
    @Option(names = "--zmq-dual-bind", description = "Accepted, no effect: no ZMQ here.")
    Boolean zmqDualBind;

    @Topic(CONSOLE)
    @Option(names = {"-v", "--verbose"}, description = "Log at DEBUG (twice, -vv: TRACE) on the console; each cell's "
            + "logs/aiperf.log always has DEBUG.")
    boolean[] verbose;

    @Topic(CONSOLE)
    @Option(names = "--extra-verbose", description = "Log at TRACE (as -vv).")
    Boolean extraVerbose;

    @Topic(CONSOLE)
    @Option(names = {"-q", "--quiet"}, description = "Print only the results: the metrics table (a sweep's table), "
            + "errors and the exports line; no progress, warnings or validity lines (each cell's logs/aiperf.log "
            + "and validity block keep them). As --log-level ERROR --ui none.")
    boolean quiet;

    @Topic(CONSOLE)
    @Option(names = "--log-level", paramLabel = "LEVEL",
            completionCandidates = Candidates.LogLevels.class, description = "Console log level: TRACE, DEBUG, INFO, NOTICE, "
            + "WARNING, SUCCESS, ERROR or CRITICAL. Default: INFO.")
    String logLevel;

    @Topic(LOAD)
    @Yaml("benchmark.runtime.request_cancellation.rate")
    @Option(names = "--request-cancellation-rate", paramLabel = "PCT", description = "Cancel this percentage of the "
            + "profiling requests (each drawn independently, seeded), after --request-cancellation-delay.")
    Double requestCancellationRate;

    @Topic(LOAD)
    @Yaml(value = "benchmark.runtime.request_cancellation.delay", defaultValue = "0")
    @Option(names = "--request-cancellation-delay", paramLabel = "SECONDS", converter = DurationConverter.class, description = "Seconds after a request "
            + "is fully sent before it is cancelled (0: send, then disconnect at once).")
    Double requestCancellationDelay;

    @Topic(INPUT)
    @Yaml(value = "benchmark.dataset.rankings.passages.mean", defaultValue = "1")
    @Option(names = "--rankings-passages-mean", paramLabel = "N", description = "Passages per rankings request.")
    Integer rankingsPassagesMean;
    @Topic(INPUT)
    @Yaml(value = "benchmark.dataset.rankings.passages.stddev", defaultValue = "0")
    @Option(names = "--rankings-passages-stddev", paramLabel = "N", description = "Passages stddev.")
    Integer rankingsPassagesStddev;
    @Topic(INPUT)
    @Yaml(value = "benchmark.dataset.rankings.passage_tokens.mean", defaultValue = "550")
    @Option(names = "--rankings-passages-prompt-token-mean", paramLabel = "TOKENS", description = "Tokens per "
            + "passage.")
    Integer rankingsPassageTokensMean;
    @Topic(INPUT)
    @Yaml(value = "benchmark.dataset.rankings.passage_tokens.stddev", defaultValue = "0")
    @Option(names = "--rankings-passages-prompt-token-stddev", paramLabel = "TOKENS", description = "Passage "
            + "tokens stddev.")
    Integer rankingsPassageTokensStddev;
    @Topic(INPUT)
    @Yaml(value = "benchmark.dataset.rankings.query_tokens.mean", defaultValue = "550")
    @Option(names = "--rankings-query-prompt-token-mean", paramLabel = "TOKENS", description = "Tokens per query.")
    Integer rankingsQueryTokensMean;
    @Topic(INPUT)
    @Yaml(value = "benchmark.dataset.rankings.query_tokens.stddev", defaultValue = "0")
    @Option(names = "--rankings-query-prompt-token-stddev", paramLabel = "TOKENS", description = "Query tokens "
            + "stddev.")
    Integer rankingsQueryTokensStddev;

    @Topic(CI)
    @Yaml("benchmark.runtime.shard")
    @Option(names = "--shard", paramLabel = "I/N", description = "Run shard I of N of each cell: 1/N of its "
            + "concurrency, rate and request count, its own part of the dataset; only shard 1 runs the control hooks. "
            + "Merge the shards with `aiperf aggregate`.")
    String shard;

    @Topic(CI)
    @Yaml("benchmark.runtime.start_at")
    @Option(names = "--start-at", paramLabel = "TIME", description = "Start the load at this ISO-8601 UTC time (e.g. "
            + "2026-12-01T10:00:00Z), so shards launched apart run together.")
    String startAt;

    @Topic(LOAD)
    @Yaml("benchmark.phases.profiling.prefill_concurrency")
    @Option(names = "--prefill-concurrency", paramLabel = "N", description = "At most N requests sent and still "
            + "waiting for their first token (streaming); the others wait their turn in the client.")
    Integer prefillConcurrency;

    @Topic(WARMUP)
    @Option(names = "--warmup-prefill-concurrency", paramLabel = "N", description = "The warmup's prefill "
            + "concurrency. Default: --prefill-concurrency.")
    Integer warmupPrefillConcurrency;

    @Topic(LOAD)
    @Yaml("benchmark.phases.profiling.prefill_concurrency_ramp_duration")
    @Option(names = "--prefill-concurrency-ramp-duration", paramLabel = "SECONDS", converter = DurationConverter.class, description = "Raise the prefill "
            + "concurrency from 1 to its value over this long.")
    Double prefillConcurrencyRampDuration;

    @Topic(WARMUP)
    @Option(names = "--warmup-prefill-concurrency-ramp-duration", paramLabel = "SECONDS", converter = DurationConverter.class, description = "The "
            + "warmup's prefill ramp. Default: --prefill-concurrency-ramp-duration.")
    Double warmupPrefillConcurrencyRampDuration;

    @Topic(LOAD)
    @Yaml("benchmark.phases.profiling.concurrency_ramp_duration")
    @Option(names = "--concurrency-ramp-duration", paramLabel = "SECONDS", converter = DurationConverter.class, description = "Raise the concurrency (or "
            + "the --concurrency ceiling of a rate) from 1 to its target over this long.")
    Double concurrencyRampDuration;

    @Topic(LOAD)
    @Yaml("benchmark.phases.profiling.rate_ramp_duration")
    @Option(names = "--request-rate-ramp-duration", paramLabel = "SECONDS", converter = DurationConverter.class, description = "Raise the request rate to "
            + "its target over this long, in steps every 0.1 s.")
    Double requestRateRampDuration;

    @Topic(WARMUP)
    @Option(names = "--warmup-concurrency-ramp-duration", paramLabel = "SECONDS", converter = DurationConverter.class, description = "The warmup's "
            + "concurrency ramp. Default: --concurrency-ramp-duration.")
    Double warmupConcurrencyRampDuration;

    @Topic(WARMUP)
    @Option(names = "--warmup-request-rate-ramp-duration", paramLabel = "SECONDS", converter = DurationConverter.class, description = "The warmup's rate "
            + "ramp. Default: --request-rate-ramp-duration.")
    Double warmupRequestRateRampDuration;

    @Topic(WARMUP)
    @Option(names = "--warmup-concurrency", paramLabel = "N", description = "Warmup concurrency. Default: --concurrency.")
    Integer warmupConcurrency;

    @Topic(WARMUP)
    @Option(names = "--warmup-request-rate", paramLabel = "RPS", description = "Warmup request rate. Default: "
            + "--request-rate.")
    Double warmupRequestRate;

    @Topic(WARMUP)
    @Option(names = "--warmup-arrival-pattern", paramLabel = "PATTERN",
            completionCandidates = Candidates.ArrivalPatterns.class, description = "Warmup arrival pattern. "
            + "Default: --arrival-pattern.")
    String warmupArrivalPattern;

    @Topic(WARMUP)
    @Option(names = "--warmup-grace-period", paramLabel = "SECONDS", converter = DurationConverter.class, description = "How long warmup responses may "
            + "take after warmup sending stops. Default: wait for all.")
    Double warmupGracePeriod;

    @Topic(ENDPOINT)
    @Yaml(value = "benchmark.endpoint.model_selection", defaultValue = "round_robin")
    @Option(names = "--model-selection-strategy", paramLabel = "SELECTION",
            completionCandidates = Candidates.ModelSelections.class, description = "How sessions pick among "
            + "several models: round_robin or random (seeded).")
    String modelSelectionStrategy;

    @Topic(SESSIONS)
    @Yaml("benchmark.endpoint.session_header")
    @Option(names = "--session-header", paramLabel = "NAME", description = "Send the session id in this header "
            + "instead of X-Correlation-ID.")
    String sessionHeader;

    @Topic(INPUT)
    @Yaml("benchmark.dataset.media_roots")
    @Option(names = "--media-root", paramLabel = "DIR", description = "Also let input-file rows read images and "
            + "audio from this folder (repeatable); by default only the input file's own folder.")
    List<String> mediaRoots;

    @Topic(INPUT)
    @Yaml("benchmark.dataset.ignore_trace_delays")
    @Option(names = "--ignore-trace-delays", description = "Drop the timestamps and turn delays of the input file: "
            + "rows and turns go out as the load mode allows.")
    Boolean ignoreTraceDelays;

    @Topic(SESSIONS)
    @Yaml("benchmark.dataset.turn_delay_cap")
    @Option(names = "--inter-turn-delay-cap-seconds", paramLabel = "SECONDS", converter = DurationConverter.class, description = "Cap every think time "
            + "between turns at this many seconds.")
    Double interTurnDelayCapSeconds;

    @Topic(SESSIONS)
    @Yaml("benchmark.dataset.prompts.user_context_prompt_length")
    @Option(names = "--user-context-prompt-length", paramLabel = "TOKENS", description = "A synthetic context of "
            + "this length, different for each conversation, put before its first turn.")
    Integer userContextPromptLength;

    @Topic(SERVER_METRICS)
    @Option(names = "--server-metrics", arity = "0..*", paramLabel = "URL", description = "Scrape Prometheus metrics "
            + "during profiling (on by default: {origin}/metrics of each --url); URLs given are scraped too.")
    List<String> serverMetrics;

    @Topic(SERVER_METRICS)
    @Option(names = "--no-server-metrics", description = "Do not scrape the servers' metrics.")
    Boolean noServerMetrics;

    @Topic(SERVER_METRICS)
    @Option(names = "--gpu-telemetry", arity = "0..*", paramLabel = "URL", description = "Scrape DCGM exporters "
            + "during profiling (default localhost:9400 and :9401) into gpu_telemetry_export.jsonl and .json.")
    List<String> gpuTelemetry;

    @Topic(SERVER_METRICS)
    @Option(names = "--no-gpu-telemetry", description = "Do not collect GPU telemetry (the default).")
    Boolean noGpuTelemetry;

    @Topic(SERVER_METRICS)
    @Option(names = "--server-metrics-formats", arity = "1..*", paramLabel = "FORMAT", description = "Server metrics "
            + "files to write: json and/or csv. Default: json csv.")
    List<String> serverMetricsFormats;

    @Topic(INPUT)
    @Yaml(value = "benchmark.dataset.block_size", defaultValue = "512")
    @Option(names = {"--isl-block-size", "--prompt-input-tokens-block-size", "--synthetic-input-tokens-block-size"}, paramLabel = "TOKENS", description = "Tokens per hash id of a mooncake_trace "
            + "row.")
    Integer islBlockSize;

    @Topic(LOAD)
    @Option(names = "--fixed-schedule", description = "Send each row of the input file at its timestamp (the default "
            + "for a file whose rows carry timestamps).")
    Boolean fixedSchedule;

    @Topic(LOAD)
    @Option(names = "--no-fixed-schedule", description = "Do not replay a timestamped input file on its timestamps.")
    Boolean noFixedSchedule;

    @Topic(LOAD)
    @Yaml("benchmark.phases.profiling.auto_offset")
    @Option(names = "--fixed-schedule-auto-offset", description = "Time zero of the replay is the first timestamp.")
    Boolean fixedScheduleAutoOffset;

    @Topic(LOAD)
    @Yaml("benchmark.phases.profiling.start_offset")
    @Option(names = "--fixed-schedule-start-offset", paramLabel = "MS", description = "Replay rows from this timestamp "
            + "on (inclusive); it is also time zero unless --fixed-schedule-auto-offset.")
    Long fixedScheduleStartOffset;

    @Topic(LOAD)
    @Yaml("benchmark.phases.profiling.end_offset")
    @Option(names = "--fixed-schedule-end-offset", paramLabel = "MS", description = "Replay rows up to this timestamp "
            + "(inclusive).")
    Long fixedScheduleEndOffset;

    @Topic(TOKENIZER)
    @Yaml("benchmark.tokenizer.name")
    @Option(names = "--tokenizer", paramLabel = "NAME_OR_PATH", description = "The tokenizer that counts tokens: a "
            + "tokenizer.json (or a directory holding one), a Hugging Face model id (from the cache, else downloaded "
            + "from HF_ENDPOINT), or builtin (o200k_base). Default: the model name.")
    String tokenizer;

    @Topic(TOKENIZER)
    @Yaml(value = "benchmark.tokenizer.revision", defaultValue = "main")
    @Option(names = "--tokenizer-revision", paramLabel = "REV", description = "The Hugging Face revision (branch, tag "
            + "or commit) to look up in the cache or download.")
    String tokenizerRevision;

    @Topic(TOKENIZER)
    @Yaml("benchmark.tokenizer.trust_remote_code")
    @Option(names = "--tokenizer-trust-remote-code", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL",
            description = "Accepted for AIPerf compatibility: a tokenizer.json runs no code.")
    Boolean tokenizerTrustRemoteCode;

    @Topic(TOKENIZER)
    @Yaml("benchmark.tokenizer.apply_chat_template")
    @Option(names = "--apply-chat-template", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL",
            description = "Count the input tokens of chat requests as the model's chat template renders them "
                    + "(tokenizer_config.json), and shorten synthetic prompts by the template's cost.")
    Boolean applyChatTemplate;

    @Topic(OUTPUT)
    @Yaml("benchmark.artifacts.dir")
    @Option(names = {"--artifact-dir", "--output-artifact-dir"}, paramLabel = "DIR", description = "Export directory. Default: artifacts/<run name>.")
    String artifactDir;
    @Topic(OUTPUT)
    @Yaml("benchmark.artifacts.prefix")
    @Option(names = {"--profile-export-prefix", "--profile-export-file"}, paramLabel = "PREFIX", description = "Export file prefix.")
    String profileExportPrefix;
    @Topic(OUTPUT)
    @Yaml("benchmark.artifacts.slice_duration")
    @Option(names = "--slice-duration", paramLabel = "SECONDS", converter = DurationConverter.class, description = "Also write the metrics of each window "
            + "of this length (profile_export_aiperf_timeslices.json and .csv).")
    Double sliceDuration;
    @Topic(OUTPUT)
    @Yaml("benchmark.artifacts.export_level")
    @Option(names = {"--export-level", "--profile-export-level"}, paramLabel = "DETAIL",
            completionCandidates = Candidates.ExportLevels.class, description = "summary (the "
            + "summary files only), records (also profile_export.jsonl) or raw (also profile_export_raw.jsonl with "
            + "each request's body and response). Default: records.")
    String exportLevel;
    @Topic(OUTPUT)
    @Yaml("benchmark.artifacts.export_outputs_json")
    @Option(names = "--export-outputs-json", description = "Also write outputs.json: each request's generated text "
            + "with its ids, times and token counts (written at --export-level raw too).")
    Boolean exportOutputsJson;
    @Topic(OUTPUT)
    @Option(names = "--goodput", paramLabel = "TAG:VALUE ...", description = "SLOs, e.g. \"time_to_first_token:100 inter_token_latency:20\".")
    List<String> goodput;
    @Topic(CONSOLE)
    @Option(names = {"--ui-type", "--ui"}, paramLabel = "UI",
            completionCandidates = Candidates.UiTypes.class, description = "dashboard, simple or none.")
    String uiType;
    @Topic(TRIALS)
    @Option(names = {"-f", "--config"}, paramLabel = "FILE", description = "AIPerf YAML config; typed flags override it.")
    Path config;

    @Topic(TRIALS)
    @Option(names = "--sweep-type", paramLabel = "SWEEP",
            completionCandidates = Candidates.SweepTypes.class, description = "How comma lists combine: grid (every combination) or zip (in lockstep). Default: grid.")
    String sweepType;
    @Topic(TRIALS)
    @Yaml(value = "multi_run.num_runs", defaultValue = "1")
    @Option(names = "--num-profile-runs", paramLabel = "N", description = "Trials of the same configuration (1-10), aggregated with confidence intervals.")
    Integer numProfileRuns;
    @Topic(TRIALS)
    @Yaml(value = "multi_run.cooldown_seconds", defaultValue = "0")
    @Option(names = "--profile-run-cooldown-seconds", paramLabel = "SECONDS", converter = DurationConverter.class, description = "Pause between trials.")
    Double profileRunCooldownSeconds;
    @Topic(TRIALS)
    @Yaml(value = "multi_run.confidence_level", defaultValue = "0.95")
    @Option(names = "--confidence-level", paramLabel = "LEVEL", description = "Confidence level of the trial intervals.")
    Double confidenceLevel;
    @Topic(TRIALS)
    @Option(names = "--profile-run-disable-warmup-after-first", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL", description = "Warm up only before the first trial. Default: true.")
    Boolean disableWarmupAfterFirst;

    @Topic(TRIALS)
    @Option(names = "--no-profile-run-disable-warmup-after-first", description = "Warm up before every trial.")
    Boolean warmupEveryTrial;

    @Topic(TRIALS)
    @Option(names = "--set-consistent-seed", description = "With several trials and no --random-seed, use seed 42 "
            + "so every trial sends the same prompts (the default).")
    Boolean setConsistentSeed;

    @Topic(TRIALS)
    @Option(names = "--no-set-consistent-seed", description = "With several trials and no --random-seed, let each "
            + "trial draw its own prompts.")
    Boolean noSetConsistentSeed;

    @Topic(TRIALS)
    @Option(names = "--no-sweep-table", description = "Print no table of the sweep points after a sweep (YAML: "
            + "no_sweep_table).")
    Boolean noSweepTable;

    @Topic(HOOKS)
    @Option(names = "--reset-kv-cache", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL", description = "POST {origin}/reset_prefix_cache once per cell, before any load.")
    Boolean resetKvCache;
    @Topic(HOOKS)
    @Yaml("benchmark.endpoint.reset_kv_cache.path")
    @Option(names = "--reset-kv-cache-path", paramLabel = "PATH", description = "Reset path (enables the reset).")
    String resetKvCachePath;
    @Topic(HOOKS)
    @Yaml("benchmark.endpoint.reset_kv_cache.timeout_seconds")
    @Option(names = "--reset-kv-cache-timeout-seconds", paramLabel = "SECONDS", converter = DurationConverter.class, description = "Per-attempt timeout (enables the reset). Default: 30.")
    Double resetKvCacheTimeoutSeconds;
    @Topic(HOOKS)
    @Yaml("benchmark.endpoint.reset_kv_cache.max_retry_seconds")
    @Option(names = "--reset-kv-cache-max-retry-seconds", paramLabel = "SECONDS", converter = DurationConverter.class, description = "Retry budget (enables the reset). Default: 60.")
    Double resetKvCacheMaxRetrySeconds;
    @Topic(HOOKS)
    @Option(names = "--server-profiler", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL", description = "POST start_profile / stop_profile around each profiling phase.")
    Boolean serverProfiler;
    @Topic(HOOKS)
    @Yaml("benchmark.endpoint.server_profiler.start_path")
    @Option(names = "--server-profiler-start-path", paramLabel = "PATH", description = "Profiler start path (enables the profiler).")
    String serverProfilerStartPath;
    @Topic(HOOKS)
    @Yaml("benchmark.endpoint.server_profiler.stop_path")
    @Option(names = "--server-profiler-stop-path", paramLabel = "PATH", description = "Profiler stop path (enables the profiler).")
    String serverProfilerStopPath;
    @Topic(HOOKS)
    @Yaml("benchmark.endpoint.server_profiler.timeout_seconds")
    @Option(names = "--server-profiler-timeout-seconds", paramLabel = "SECONDS", converter = DurationConverter.class, description = "Per-call timeout (enables the profiler). Default: 30.")
    Double serverProfilerTimeoutSeconds;

    @picocli.CommandLine.Mixin
    OutputExtraOptions outputExtras = new OutputExtraOptions();
    @picocli.CommandLine.Mixin
    MediaOptions media = new MediaOptions();
    @picocli.CommandLine.Mixin
    RateSeriesOption rateSeries = new RateSeriesOption();
    @picocli.CommandLine.Mixin
    TrialSweepOptions trialSweep = new TrialSweepOptions();

    /** The typed values as a canonical config tree. */
    CliOverlay overlay() {
        return overlay(false);
    }

    /**
     * @param searching whether a capacity search varies the load by value: the keys of its knob are reserved where a
     *                  typed value goes, so each point's tree is the one its value typed would give
     */
    CliOverlay overlay(final boolean searching) {
        final CliOverlay o = added.isEmpty() ? new CliOverlay() : new CliOverlay(declared());
        OptionTable.PROFILE.overlay(this, o); // the fields with a plain @Yaml key; the code below sets the rest
        added.forEach(more -> OptionTable.of(more.getClass()).overlay(more, o));
        outputExtras.apply(o);
        rateSeries.apply(o);
        trialSweep.apply(o, randomSeed);
        if (model != null) {
            o.set("models", List.of(model.split("\\s*,\\s*")), "--model");
        }
        if (Boolean.TRUE.equals(http2)) {
            o.set("endpoint.http2", true, "--http2");
        }
        final String verifyEnv = System.getenv("AIPERF_HTTP_SSL_VERIFY");
        if (Boolean.TRUE.equals(sslInsecure)) {
            o.set("endpoint.ssl_verify", false, "--ssl-insecure");
        } else if (sslInsecure == null && verifyEnv != null && java.util.List.of("false", "0", "no")
                .contains(verifyEnv.trim().toLowerCase(java.util.Locale.ROOT))) {
            o.set("endpoint.ssl_verify", false, "AIPERF_HTTP_SSL_VERIFY");
        }
        if (Boolean.TRUE.equals(noRetryUnsent)) {
            o.set("runtime.retry_unsent", false, "--no-retry-unsent");
        }
        if (Boolean.TRUE.equals(noPreconnect)) {
            o.set("runtime.preconnect", false, "--no-preconnect");
        }
        if (requestTimeoutSeconds != null && !(requestTimeoutSeconds > 0)) {
            throw new ConfigException("--request-timeout-seconds", "Input should be greater than 0");
        }
        if (apiKeyEnv != null) {
            final String fromEnv = System.getenv(apiKeyEnv);
            if (fromEnv == null || fromEnv.isEmpty()) {
                throw new ConfigException("--api-key-env", "environment variable " + apiKeyEnv + " is not set");
            }
            if (apiKey != null) {
                throw new ConfigException("--api-key-env", "give either --api-key or --api-key-env, not both");
            }
            o.set("endpoint.api_key", fromEnv, "--api-key-env");
        }
        o.set("endpoint.headers", headers == null ? null : pairs("--header", headers, false), "--header");
        o.set("endpoint.extra", extraInputs == null ? null : pairs("--extra-inputs", extraInputs, true), "--extra-inputs");
        hooks(o);
        final String type = load(o, concurrency, requestRate, searching);
        OptionTable.PROFILE.overlaySweeps(this, o, LOAD_AXES); // --request-count, --benchmark-duration, ...
        added.forEach(more -> OptionTable.of(more.getClass()).overlaySweeps(more, o, List.of()));
        o.sweepType(sweepType);
        o.phase("profiling", "grace_period", benchmarkGracePeriod == null ? null
                : benchmarkGracePeriod.equalsIgnoreCase("inf") ? "inf" : duration("--benchmark-grace-period", benchmarkGracePeriod),
                "--benchmark-grace-period");
        if (warmupGracePeriod != null && warmupRequestCount == null && warmupDuration == null
                && numWarmupSessions == null) {
            throw new ConfigException("--warmup-grace-period", "needs a warmup (--warmup-request-count, "
                    + "--warmup-duration or --num-warmup-sessions)");
        }
        if (warmupRequestCount != null || warmupDuration != null || numWarmupSessions != null) {
            o.phase("warmup", "kind", "warmup", "--warmup-request-count");
            o.phase("warmup", "concurrency", warmupConcurrency, "--warmup-concurrency");
            o.phase("warmup", "rate", warmupRequestRate, "--warmup-request-rate");
            o.phase("warmup", "type", warmupArrivalPattern != null ? warmupArrivalPattern
                    : warmupRequestRate != null && arrivalPattern == null ? "poisson" : null, "--warmup-arrival-pattern");
            o.phase("warmup", "grace_period", warmupGracePeriod, "--warmup-grace-period");
            o.phase("warmup", "prefill_concurrency", warmupPrefillConcurrency, "--warmup-prefill-concurrency");
            o.phase("warmup", "prefill_concurrency_ramp_duration", warmupPrefillConcurrencyRampDuration,
                    "--warmup-prefill-concurrency-ramp-duration");
            o.phase("warmup", "concurrency_ramp_duration", warmupConcurrencyRampDuration,
                    "--warmup-concurrency-ramp-duration");
            o.phase("warmup", "rate_ramp_duration", warmupRequestRateRampDuration,
                    "--warmup-request-rate-ramp-duration");
            o.phase("warmup", "requests", warmupRequestCount, "--warmup-request-count");
            o.phase("warmup", "sessions", numWarmupSessions, "--num-warmup-sessions");
            o.phase("warmup", "duration", warmupDuration, "--warmup-duration");
        }
        magic(o, "--isl", isl, "isl", v -> o.set("dataset.prompts.isl.mean", v, "--isl"));
        magic(o, "--osl", osl, "osl", v -> o.set("dataset.prompts.osl.mean", v, "--osl"));
        if (oslStddev != null && osl == null) {
            throw new ConfigException("--osl-stddev", "can only be used together with --osl");
        }
        if (publicDataset != null) {
            o.set("dataset.type", "public", "--public-dataset");
            o.set("dataset.public_dataset", publicDataset, "--public-dataset");
            o.set("dataset.path", inputFile, "--input-file");
        } else if (inputFile != null) {
            o.set("dataset.type", "file", "--input-file");
            o.set("dataset.path", inputFile, "--input-file");
        }
        if (Boolean.TRUE.equals(noGpuTelemetry)) {
            o.set("endpoint.gpu_telemetry", false, "--no-gpu-telemetry");
        } else if (gpuTelemetry != null) {
            if (gpuTelemetry.isEmpty()) {
                o.set("endpoint.gpu_telemetry", true, "--gpu-telemetry");
            } else {
                o.set("endpoint.gpu_telemetry", array(gpuTelemetry), "--gpu-telemetry");
            }
        }
        if (Boolean.TRUE.equals(noServerMetrics)) {
            if (serverMetrics != null || serverMetricsFormats != null) {
                throw new ConfigException("--no-server-metrics", "cannot be combined with --server-metrics or "
                        + "--server-metrics-formats");
            }
            o.set("endpoint.server_metrics", false, "--no-server-metrics");
        }
        if (serverMetrics != null && !serverMetrics.isEmpty()) {
            o.set("endpoint.server_metrics.urls", array(serverMetrics), "--server-metrics");
        }
        if (serverMetricsFormats != null) {
            o.set("endpoint.server_metrics.formats", array(serverMetricsFormats), "--server-metrics-formats");
        }
        only("--transport", transport, "http");
        logLevel(); // a bad level is a usage error before anything starts
        only("--request-content-type", requestContentType, "application/json");
        only("--prompt-corpus", promptCorpus, "sonnet");
        only("--cache-bust", cacheBust, "none");
        if (Boolean.TRUE.equals(fixedSchedule) && Boolean.TRUE.equals(noFixedSchedule)) {
            throw new ConfigException("--fixed-schedule", "give either --fixed-schedule or --no-fixed-schedule");
        }
        if (Boolean.TRUE.equals(fixedSchedule)) {
            o.phase("profiling", "type", "fixed_schedule", "--fixed-schedule");
        } else if (Boolean.TRUE.equals(noFixedSchedule) && type == null) {
            o.phase("profiling", "type", "concurrency", "--no-fixed-schedule");
        }
        o.randomSeed(randomSeed);
        o.noSweepTable(noSweepTable);
        if (setConsistentSeed != null && noSetConsistentSeed != null) {
            throw new ConfigException("--no-set-consistent-seed", "give it or --set-consistent-seed, not both");
        }
        o.multiRun("set_consistent_seed", noSetConsistentSeed != null ? Boolean.FALSE : setConsistentSeed,
                "--set-consistent-seed");
        if (Boolean.TRUE.equals(warmupEveryTrial) && disableWarmupAfterFirst != null) {
            throw new ConfigException("--no-profile-run-disable-warmup-after-first", "give it or "
                    + "--profile-run-disable-warmup-after-first, not both");
        }
        o.multiRun("disable_warmup_after_first", Boolean.TRUE.equals(warmupEveryTrial) ? Boolean.FALSE
                : disableWarmupAfterFirst, "--profile-run-disable-warmup-after-first");
        if (goodput != null) {
            o.set("slos", goodput(goodput), "--goodput");
        }
        if (requestCancellationRate != null && !(requestCancellationRate > 0)) {
            throw new ConfigException("--request-cancellation-rate", "Input should be greater than 0");
        }
        o.set("runtime.ui", quiet && uiType == null ? "none" : uiType, "--ui-type");
        return o;
    }

    /**
     * Adds the options of {@code more} (an options class declared as this one is: {@code @Option} fields with their
     * {@link Topic} and {@link Yaml} lines) to {@code command}, the command these options belong to: its help lists
     * them, its parse sets them, and the config binds their keys as it binds this class's. A profile option is a
     * field of this class (src-docs/adding-an-option.md); this is how a test declares one no production code knows.
     */
    void add(final CommandLine command, final Object more) {
        command.addMixin(more.getClass().getName(), more);
        added.add(more);
    }

    /** The option table of these options and of the ones {@link #add}ed. */
    private DeclaredOptions declared() {
        final List<DeclaredOptions.Row> more = new ArrayList<>();
        added.forEach(options -> more.addAll(OptionTable.of(options.getClass()).rows()));
        return DeclaredOptions.installed().with(more);
    }

    /** The console log level the flags ask for (the last of --log-level, -v, -vv wins as the most verbose). */
    public RunLog.Level logLevel() {
        RunLog.Level level = RunLog.Level.INFO;
        if (logLevel != null) {
            level = RunLog.Level.parse(logLevel);
            if (level == null) {
                throw new ConfigException("--log-level", "expected one of TRACE, DEBUG, INFO, NOTICE, WARNING, "
                        + "SUCCESS, ERROR, CRITICAL; got '" + logLevel + "'");
            }
        }
        if (verbose != null && verbose.length > 0) {
            level = verbose.length > 1 ? RunLog.Level.TRACE : RunLog.Level.DEBUG;
        }
        if (Boolean.TRUE.equals(extraVerbose)) {
            level = RunLog.Level.TRACE;
        }
        return quiet && level.compareTo(RunLog.Level.ERROR) < 0 && (verbose == null || verbose.length == 0)
                && !Boolean.TRUE.equals(extraVerbose) ? RunLog.Level.ERROR : level;
    }

    private static com.fasterxml.jackson.databind.node.ArrayNode array(final List<String> values) {
        final com.fasterxml.jackson.databind.node.ArrayNode list = JsonNodeFactory.instance.arrayNode();
        values.forEach(list::add);
        return list;
    }

    /** An option accepted for AIPerf's sake whose only supported value is {@code supported}. */
    private static void only(final String flag, final String given, final String supported) {
        if (given != null && !given.equalsIgnoreCase(supported)) {
            throw new ConfigException(flag, "only " + supported + " is supported, got '" + given + "' (see the "
                    + "deliberate differences in src-docs/cli.md)");
        }
    }

    private void hooks(final CliOverlay o) {
        final boolean resetOverride = resetKvCachePath != null || resetKvCacheTimeoutSeconds != null
                || resetKvCacheMaxRetrySeconds != null;
        if (Boolean.FALSE.equals(resetKvCache) && !resetOverride) {
            o.set("endpoint.reset_kv_cache", false, "--reset-kv-cache");
        } else if (Boolean.TRUE.equals(resetKvCache) && !resetOverride) {
            o.set("endpoint.reset_kv_cache", true, "--reset-kv-cache");
        }
        final boolean profilerOverride = serverProfilerStartPath != null || serverProfilerStopPath != null
                || serverProfilerTimeoutSeconds != null;
        if (Boolean.FALSE.equals(serverProfiler) && !profilerOverride) {
            o.set("endpoint.server_profiler", false, "--server-profiler");
        } else if (Boolean.TRUE.equals(serverProfiler) && !profilerOverride) {
            o.set("endpoint.server_profiler", true, "--server-profiler");
        }
    }

    private static double duration(final String flag, final String text) {
        try {
            return Durations.seconds(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(flag, e.getMessage());
        }
    }

    /**
     * The profiling load: {@code --concurrency}, {@code --request-rate} and the arrival they imply. A capacity
     * search's point passes its own value of its knob, over the overlay of the options as given.
     *
     * @param reserve whether to reserve the keys a point sets where its typed value would go
     * @return the profiling phase's arrival type the flags name, or null
     */
    String load(final CliOverlay o, final String concurrency, final String requestRate, final boolean reserve) {
        if (reserve && concurrency == null) {
            o.slot("profiling", "concurrency", "--concurrency");
        }
        OptionTable.PROFILE.sweep(CONCURRENCY, concurrency, o);
        if (reserve && requestRate == null) {
            o.slot("profiling", "rate", "--request-rate");
        }
        OptionTable.PROFILE.sweep(RATE, requestRate, o);
        final String type = arrivalPattern != null ? arrivalPattern
                : requestRate != null ? (arrivalSmoothness != null ? "gamma" : "poisson") : null;
        if (userCentricRate != null) {
            if (requestRate != null || arrivalPattern != null) {
                throw new ConfigException("--user-centric-rate", "--user-centric-rate cannot be used together with "
                        + "--request-rate or --arrival-pattern");
            }
            if (numUsers == null) {
                throw new ConfigException("--user-centric-rate", "--user-centric-rate requires --num-users to be set");
            }
            o.phase("profiling", "type", "user_centric", "--user-centric-rate");
            o.phase("profiling", "rate", userCentricRate, "--user-centric-rate");
        } else if (numUsers != null) {
            throw new ConfigException("--num-users", "--num-users can only be used with --user-centric-rate");
        }
        if (reserve && type == null) {
            o.slot("profiling", "type", "--arrival-pattern");
        }
        o.phase("profiling", "type", type, "--arrival-pattern");
        return type;
    }

    /**
     * {@code --isl} and {@code --osl}, AIPerf's "magic list" flags of a length distribution: one value sets its mean;
     * a comma list becomes the sweep axis {@code isl} or {@code osl}, whose values the sweep makes the mean (the
     * sweeping rows of the option table do the same for a key of their own, {@link OptionTable#sweep}).
     */
    private static void magic(final CliOverlay o, final String flag, final String text, final String axis,
                              final java.util.function.Consumer<Number> single) {
        if (text == null) {
            return;
        }
        final List<Number> values = new ArrayList<>();
        for (final String part : text.split(",")) {
            final String t = part.trim();
            try {
                values.add(Integer.valueOf(t));
            } catch (NumberFormatException e) {
                throw new ConfigException(flag, "Input should be a valid integer, got '" + t + "'");
            }
        }
        if (values.size() == 1) {
            single.accept(values.get(0));
        } else {
            o.sweepAxis(axis, values, flag);
        }
    }

    /** {@code Name:Value} pairs or JSON objects; with {@code typed}, values that parse as JSON keep their type. */
    static ObjectNode pairs(final String flag, final List<String> items, final boolean typed) {
        final ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (final String item : items) {
            final String t = item.trim();
            if (t.startsWith("{")) {
                try {
                    final JsonNode n = Json.MAPPER.readTree(t);
                    n.properties().forEach(e -> out.set(e.getKey(), typed ? e.getValue() : JsonNodeFactory.instance.textNode(e.getValue().asText())));
                } catch (java.io.IOException e) {
                    throw new ConfigException(flag, "invalid JSON object");
                }
                continue;
            }
            final int colon = t.indexOf(':');
            if (colon <= 0) {
                throw new ConfigException(flag, "expected KEY:VALUE, got '" + (typed ? t : "<redacted>") + "'");
            }
            final String key = t.substring(0, colon).trim();
            final String value = t.substring(colon + 1).trim();
            if (typed) {
                try {
                    out.set(key, Json.MAPPER.readTree(value));
                } catch (java.io.IOException e) {
                    out.put(key, value);
                }
            } else {
                out.put(key, value);
            }
        }
        return out;
    }

    static ObjectNode goodput(final List<String> specs) {
        final ObjectNode out = JsonNodeFactory.instance.objectNode();
        final List<String> parts = new ArrayList<>();
        specs.forEach(s -> parts.addAll(List.of(s.trim().split("\\s+"))));
        for (final String p : parts) {
            final int colon = p.indexOf(':');
            if (colon <= 0) {
                throw new ConfigException("--goodput", "expected TAG:VALUE, got '" + p + "'");
            }
            out.put(p.substring(0, colon), parseDouble("--goodput", p.substring(colon + 1)));
        }
        return out;
    }

    private static double parseDouble(final String flag, final String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new ConfigException(flag, "Input should be a valid number, got '" + s + "'");
        }
    }
}
