package io.aiperf.engine.mock;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OpenAI-compatible mock inference server with AIPerf's latency model (AIPerf's mock server docs) and the admin routes
 * of the control-hooks contract. Every response is planned when the request arrives: streamed tokens are
 * written at absolute deadlines (arrival + TTFT + i x ITL), so the latency it shows does not drift with load.
 * Runs on {@link MiniHttpServer}'s non-blocking loops. Thread-safe; start with {@link #start}, stop with
 * {@link #close}.
 * <p>
 * It is over 400 lines because it plans the responses of every endpoint type the engine sends (chat, completions,
 * responses, embeddings, rankings, infer), streamed and not, plus the admin routes.
 */
public final class MockServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int EMBEDDING_DIM = 768;
    private static final String JSON_TYPE = "application/json";
    private static final long NEVER_NANOS = 3_600_000_000_000L;

    private final MockServerConfig config;
    private final ControlState state = new ControlState();
    private final MiniHttpServer server;
    private final SplittableRandom seedSource;
    private final AtomicInteger ids = new AtomicInteger();
    private final Slots slots;

    private volatile java.io.PrintStream accessLog;

    private MockServer(final MockServerConfig config) throws IOException {
        this.config = config;
        this.seedSource = new SplittableRandom(config.randomSeed());
        config.faults().forEach(state::addFault);
        this.slots = new Slots(config.maxSlots());
        state.metrics().maxSlots(config.maxSlots());
        this.server = new MiniHttpServer(config.host(), config.port(),
                loopThreads(config), this::handleAndLog);
    }

    /**
     * One loop when latencies are modelled (fewer threads keep deadlines sharp on small machines), up to two
     * in zero-latency mode, where throughput matters.
     */
    private static int loopThreads(final MockServerConfig config) {
        final boolean modelled = config.ttftMillis() > 0 || config.itlMillis() > 0;
        return modelled ? 1 : Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors() / 2 + 1));
    }

    public static MockServer start(final MockServerConfig config) throws IOException {
        return new MockServer(config);
    }

    public int port() {
        return server.port();
    }

    public String url() {
        return "http://" + config.host() + ":" + port();
    }

    /** Connections the mock accepted since it started. */
    public long acceptedConnections() {
        return server.accepted();
    }

    public ControlState controlState() {
        return state;
    }

    /**
     * How busy the server's event loops were since {@code since} (a {@link #busy} reading taken earlier): the share
     * of their wall time they spent on the CPU, 0 to 1; -1 where the JVM cannot tell. An in-process mock whose
     * loops were near 1 limited the run itself.
     */
    public double busyShare(final long[] since) {
        final long[] now = busy();
        if (since[0] < 0 || now[0] < 0 || now[1] <= since[1]) {
            return -1;
        }
        return (double) (now[0] - since[0]) / ((double) (now[1] - since[1]) * server.loopCount());
    }

    /** Above this share of their time on the CPU, the loops were the bottleneck, not the server they model. */
    static final double SATURATED = 0.8;

    /** The console's warning for an in-process mock that was this busy, or null when it kept up. */
    public static String saturationWarning(final double busyShare) {
        if (busyShare < SATURATED) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "the in-process --mock server's event loops were on the CPU %.0f%% "
                + "of the run: the mock, sharing this machine's cores with the client, limited the run; start "
                + "`aiperf mock-server` apart (another machine, or other cores) to measure the client", busyShare * 100);
    }

    /** A reading for {@link #busyShare}: the loops' CPU time and the wall clock, in nanoseconds. */
    public long[] busy() {
        return new long[] {server.loopCpuNanos(), System.nanoTime()};
    }

    @Override
    public void close() {
        server.close();
    }

    /**
     * Writes one line per request from now on: time, method, path, the answer's status (or {@code -} when the
     * connection is closed or dropped without one). Null stops it. Headers and bodies are never logged.
     */
    public void accessLog(final java.io.PrintStream log) {
        this.accessLog = log;
    }

    private MiniHttpServer.Response handleAndLog(final MiniHttpServer.Request req) {
        final MiniHttpServer.Response response = handle(req);
        final java.io.PrintStream log = accessLog;
        if (log != null) {
            log.println(java.time.Instant.now() + " " + req.method() + " " + req.path() + " " + status(response));
        }
        return response;
    }

    /** The status code in the first step's head, or "-". */
    private static String status(final MiniHttpServer.Response response) {
        if (response.steps().isEmpty() || response.steps().get(0).bytes() == null) {
            return "-";
        }
        final byte[] head = response.steps().get(0).bytes();
        final String start = new String(head, 0, Math.min(head.length, 12), StandardCharsets.ISO_8859_1);
        return start.startsWith("HTTP/1.1 ") && start.length() >= 12 ? start.substring(9, 12) : "-";
    }

    private MiniHttpServer.Response handle(final MiniHttpServer.Request req) {
        final String path = req.path();
        final Fault fault = state.onCall(path);
        final long start = fault != null && fault.kind() == Fault.Kind.DELAY
                ? req.arrivalNanos() + fault.amount() * 1_000_000L : req.arrivalNanos();
        if (fault != null) {
            switch (fault.kind()) {
                case STATUS -> {
                    final byte[] body = "{\"error\":\"injected fault\"}".getBytes(StandardCharsets.UTF_8);
                    return once(start, MiniHttpServer.head(fault.status(), JSON_TYPE, body.length, false,
                            fault.status() == 429 ? "Retry-After: 1" : null), body, null);
                }
                case CLOSE -> {
                    return new MiniHttpServer.Response(List.of(new MiniHttpServer.Step(start, null, true)), true, null);
                }
                case DROP -> {
                    if (java.util.concurrent.ThreadLocalRandom.current().nextInt(100) < fault.amount()) {
                        state.droppedConnection();
                        return new MiniHttpServer.Response(List.of(new MiniHttpServer.Step(start, null, true)), true,
                                null);
                    }
                }
                case ECHO_AUTH -> {
                    final String given = String.valueOf(req.headers().get("authorization"));
                    // JSON-escaped as a real server writes it: a key holding a quote or backslash arrives escaped
                    final ObjectNode error = JSON.createObjectNode();
                    error.putObject("error").put("message", "Incorrect API key provided: " + given)
                            .put("type", "invalid_request_error");
                    final byte[] body = error.toString().getBytes(StandardCharsets.UTF_8);
                    return once(start, MiniHttpServer.head(401, JSON_TYPE, body.length, false), body, null);
                }
                case NEVER -> {
                    // Hold the connection for an hour without a byte; the client's timeout has to end it.
                    return new MiniHttpServer.Response(List.of(new MiniHttpServer.Step(start + NEVER_NANOS, null, true)),
                            true, null);
                }
                default -> { }
            }
        }
        try {
            return switch (path) {
                case "/v1/chat/completions", "/v1/completions", "/v1/embeddings" -> {
                    if (!req.method().equals("POST")) {
                        yield json(start, 405, "{\"error\":\"Method Not Allowed\"}", null);
                    }
                    if (!authorized(req)) {
                        yield json(start, 401, "{\"error\": \"Unauthorized\"}", null);
                    }
                    yield inference(req, path, fault, start);
                }
                case "/v1/responses", "/v1/messages", "/generate", "/generate_stream", "/v1/ranking", "/rerank",
                     "/v2/rerank", "/v1/image/infer", "/v1/infer", "/v1/images/generations", "/rag/api/prompt" -> {
                    if (!req.method().equals("POST")) {
                        yield json(start, 405, "{\"error\":\"Method Not Allowed\"}", null);
                    }
                    if (!authorized(req)) {
                        yield json(start, 401, "{\"error\": \"Unauthorized\"}", null);
                    }
                    yield otherInference(req, path, start);
                }
                case "/reset_prefix_cache", "/flush_cache" -> admin(req, "reset", start);
                case "/start_profile" -> admin(req, "start_profile", start);
                case "/stop_profile" -> admin(req, "stop_profile", start);
                case "/admin/control-state" -> json(start, 200, JSON.writeValueAsString(state.snapshot()), null);
                case "/admin/faults" -> adminFault(req, start);
                case "/admin/clear" -> {
                    state.clear();
                    yield json(start, 200, "{\"cleared\":true}", null);
                }
                case "/metrics" -> {
                    final byte[] text = state.metricsText(start).getBytes(StandardCharsets.UTF_8);
                    yield once(start, MiniHttpServer.head(200, "text/plain; version=0.0.4", text.length, false), text,
                            null);
                }
                case "/v1/models" -> json(start, 200,
                        "{\"object\":\"list\",\"data\":[{\"id\":\"mock-model\",\"object\":\"model\",\"owned_by\":\"aiperf-java\"}]}", null);
                case "/health" -> json(start, 200, JSON.writeValueAsString(Map.of("status", "healthy",
                        "ttft_ms", config.ttftMillis(), "itl_ms", config.itlMillis(),
                        "auth", config.apiKey() != null)), null);
                default -> json(start, 404, "{\"error\":\"Not Found\"}", null);
            };
        } catch (JsonProcessingException e) {
            return json(start, 500, "{\"error\":\"mock serialization failed\"}", null);
        }
    }

    private MiniHttpServer.Response admin(final MiniHttpServer.Request req, final String event, final long at) {
        if (!req.method().equals("POST")) {
            return json(at, 405, "{\"error\":\"Method Not Allowed\"}", null);
        }
        // Counted as it arrives: a client that sends its next request as soon as it has the answer must find this
        // call before that request in the event log, whichever of the mock's threads finishes first.
        if (config.apiKey() != null && authorized(req)) {
            state.authorizedAdminCall();
        }
        state.event(event);
        return json(at, 200, "{\"success\":true}", null);
    }

    private MiniHttpServer.Response adminFault(final MiniHttpServer.Request req, final long at) throws JsonProcessingException {
        try {
            final JsonNode spec = JSON.readTree(req.body());
            state.addFault(Fault.parse(spec.path("fault").asText()));
            return json(at, 200, "{\"armed\":true}", null);
        } catch (IOException | IllegalArgumentException e) {
            return json(at, 400, JSON.writeValueAsString(Map.of("error", String.valueOf(e.getMessage()))), null);
        }
    }

    private boolean authorized(final MiniHttpServer.Request req) {
        if (config.apiKey() == null) {
            return true;
        }
        final String given = req.headers().get("authorization");
        return given != null && (given.equals(config.apiKey()) || given.equals("Bearer " + config.apiKey()))
                || config.apiKey().equals(req.headers().get("x-api-key")); // Anthropic's way
    }

    private MiniHttpServer.Response inference(final MiniHttpServer.Request http, final String path, final Fault fault,
                                              final long arrival) throws JsonProcessingException {
        final MiniHttpServer.Response response = queued(plannedInference(http, path, fault, arrival), arrival);
        if (fault == null) {
            return response;
        }
        // Like servers that end a kept-alive connection after every response without saying so: the end follows
        // the last byte, so a request the client writes there in the meantime is never answered.
        return switch (fault.kind()) {
            case CLOSE_AFTER -> new MiniHttpServer.Response(response.steps(), true, response.onDone());
            case HALF_CLOSE -> new MiniHttpServer.Response(response.steps(), false, response.onDone(),
                    new MiniHttpServer.Ending(true, 0));
            case CLOSE_LATER -> new MiniHttpServer.Response(response.steps(), false, response.onDone(),
                    new MiniHttpServer.Ending(false, fault.amount() * 1_000_000L));
            default -> response;
        };
    }

    private MiniHttpServer.Response plannedInference(final MiniHttpServer.Request http, final String path,
                                                     final Fault fault, final long arrival)
            throws JsonProcessingException {
        final Runnable counted = () -> state.event("inference");
        final JsonNode req = body(http);
        if (req == null) {
            return json(arrival, 400, "{\"error\":\"invalid JSON body\"}", counted);
        }
        final SplittableRandom random = nextRandom();
        if (config.errorRatePercent() > 0 && random.nextDouble() * 100 < config.errorRatePercent()) {
            return json(arrival, 500, "{\"error\":{\"message\":\"mock: injected error\",\"type\":\"server_error\"}}", counted);
        }
        state.ledger().record(req, http.headers().get("x-correlation-id"));
        final boolean stream = req.path("stream").asBoolean(false);
        if (fault != null && fault.kind() == Fault.Kind.GARBAGE) {
            final String body = stream ? "data: {not json\n\ndata: [DONE]\n\n" : "<html>garbage</html>";
            final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            return once(arrival, MiniHttpServer.head(200, stream ? "text/event-stream" : JSON_TYPE, bytes.length, false),
                    bytes, counted);
        }
        final String model = req.path("model").asText("mock-model");
        if (path.equals("/v1/embeddings")) {
            return embeddings(req, model, arrival, counted);
        }
        final boolean chat = path.equals("/v1/chat/completions");
        final JsonNode messages = req.path("messages");
        final String prompt = chat ? PromptLedger.textOf(messages.path(messages.size() - 1).path("content"))
                : req.path("prompt").asText("");
        final int tokens = replyLength(req, prompt);
        final int seed = prompt.hashCode();
        final long firstTokenAt = arrival + (long) (config.ttftMillis() * jitter(random, config.ttftJitterCv()) * 1e6);
        final long itlNanos = (long) (config.itlMillis() * 1e6);
        final String id = (chat ? "chatcmpl-" : "cmpl-") + ids.incrementAndGet();
        final int promptTokens = Math.max(1, prompt.length() / 4);
        state.metrics().tokens(promptTokens, tokens);
        if (stream && fault != null && fault.kind() == Fault.Kind.ENDLESS) {
            return endless(arrival, counted);
        }
        if (stream) {
            final boolean usage = req.path("stream_options").path("include_usage").asBoolean(false);
            final boolean continuous = chat && req.path("stream_options").path("continuous_usage_stats")
                    .asBoolean(false);
            final int firstChunk = Math.max(1, Math.min(tokens, req.path("mock_first_chunk_tokens").asInt(1)));
            return stream(chat, id, model, tokens, seed, arrival, firstTokenAt, itlNanos, random, usage, promptTokens,
                    fault, counted, continuous, firstChunk);
        }
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < tokens; i++) {
            text.append(ReplyWords.token(seed, i));
        }
        final ObjectNode resp = JSON.createObjectNode();
        resp.put("id", id).put("object", chat ? "chat.completion" : "text_completion").put("model", model);
        final ObjectNode choice = resp.putArray("choices").addObject().put("index", 0);
        if (chat) {
            choice.putObject("message").put("role", "assistant").put("content", text.toString());
        } else {
            choice.put("text", text.toString());
        }
        choice.put("finish_reason", "length");
        usage(resp.putObject("usage"), promptTokens, tokens);
        return json(firstTokenAt + itlNanos * tokens, 200, JSON.writeValueAsString(resp), counted);
    }

    private MiniHttpServer.Response stream(final boolean chat, final String id, final String model, final int tokens,
                                           final int seed, final long arrival, final long firstTokenAt,
                                           final long itlNanos, final SplittableRandom random,
                                           final boolean includeUsage, final int promptTokens, final Fault fault,
                                           final Runnable onDone, final boolean continuousUsage,
                                           final int firstChunk) throws JsonProcessingException {
        final Fault.Kind misbehave = fault == null ? null : fault.kind();
        final boolean truncate = misbehave == Fault.Kind.TRUNCATE;
        final List<MiniHttpServer.Step> steps = new ArrayList<>(tokens + 3);
        // The arrival stamp (monotonic ns) lets a client on the same host measure its own send latency.
        steps.add(new MiniHttpServer.Step(arrival,
                MiniHttpServer.head(200, "text/event-stream", -1, false, "X-Mock-Arrival-Ns: " + arrival), false));
        final String prefix = "data: {\"id\":\"" + id + "\",\"object\":\""
                + (chat ? "chat.completion.chunk" : "text_completion") + "\",\"model\":"
                + JSON.writeValueAsString(model) + ",\"choices\":[{\"index\":0,";
        long due = firstTokenAt;
        final StringBuilder bundled = new StringBuilder(); // the first chunk's tokens, when it brings several
        for (int i = 0; i < tokens; i++) {
            if (i < firstChunk - 1) {
                bundled.append(ReplyWords.token(seed, i));
                continue;
            }
            if (i >= firstChunk) {
                due += (long) (itlNanos * jitter(random, config.itlJitterCv()));
            }
            if (i == 1 && misbehave != null) {
                switch (misbehave) {
                    case STALL -> due += fault.amount() * 1_000_000L;
                    case HUGE_EVENT -> steps.add(new MiniHttpServer.Step(due, MiniHttpServer.chunk(hugeEvent(fault.amount())), false));
                    case BAD_UTF8 -> badUtf8(steps, due, prefix, chat);
                    case ERROR_EVENT -> {
                        final byte[] error = ("event: error\ndata: {\"error\":{\"message\":\"mock: the engine is "
                                + "overloaded\",\"type\":\"overloaded_error\"}}\n\n").getBytes(StandardCharsets.UTF_8);
                        steps.add(new MiniHttpServer.Step(due, concat(MiniHttpServer.chunk(error), MiniHttpServer.LAST_CHUNK), false));
                        return new MiniHttpServer.Response(steps, false, onDone);
                    }
                    default -> { }
                }
            }
            if (truncate && i == tokens / 2) {
                steps.add(new MiniHttpServer.Step(due, null, true));
                return new MiniHttpServer.Response(steps, true, onDone);
            }
            final String word = (i == firstChunk - 1 ? bundled : "") + ReplyWords.token(seed, i);
            // continuous_usage_stats (vLLM's extension): the cumulative usage on every chunk
            final String usageField = continuousUsage ? ",\"usage\":{\"prompt_tokens\":" + promptTokens
                    + ",\"completion_tokens\":" + (i + 1) + ",\"total_tokens\":" + (promptTokens + i + 1) + "}" : "";
            final String event = chat
                    ? prefix + "\"delta\":{" + (i == firstChunk - 1 ? "\"role\":\"assistant\"," : "") + "\"content\":\""
                    + word + "\"},\"finish_reason\":null}]" + usageField + "}\n\n"
                    : prefix + "\"text\":\"" + word + "\",\"finish_reason\":null}]}\n\n";
            steps.add(new MiniHttpServer.Step(due, MiniHttpServer.chunk(event.getBytes(StandardCharsets.UTF_8)), false));
        }
        final StringBuilder tail = new StringBuilder();
        tail.append(prefix).append(chat ? "\"delta\":{}," : "\"text\":\"\",").append("\"finish_reason\":\"length\"}]}\n\n");
        if (includeUsage) {
            final ObjectNode u = JSON.createObjectNode();
            u.put("id", id).put("model", model).putArray("choices");
            usage(u.putObject("usage"), promptTokens, tokens);
            tail.append("data: ").append(JSON.writeValueAsString(u)).append("\n\n");
        }
        if (misbehave != Fault.Kind.NO_DONE) {
            tail.append("data: [DONE]\n\n");
        }
        final byte[] tailChunk = MiniHttpServer.chunk(tail.toString().getBytes(StandardCharsets.UTF_8));
        final byte[] end = new byte[tailChunk.length + MiniHttpServer.LAST_CHUNK.length];
        System.arraycopy(tailChunk, 0, end, 0, tailChunk.length);
        System.arraycopy(MiniHttpServer.LAST_CHUNK, 0, end, tailChunk.length, MiniHttpServer.LAST_CHUNK.length);
        steps.add(new MiniHttpServer.Step(due, end, false));
        return new MiniHttpServer.Response(steps, false, onDone);
    }

    /** One SSE event of about {@code bytes} bytes: valid JSON, just far too large. */
    private static byte[] hugeEvent(final long bytes) {
        final byte[] event = new byte[(int) Math.max(32, bytes)];
        java.util.Arrays.fill(event, (byte) 'a');
        final byte[] head = "data: {\"pad\":\"".getBytes(StandardCharsets.US_ASCII);
        final byte[] tail = "\"}\n\n".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, event, 0, head.length);
        System.arraycopy(tail, 0, event, event.length - tail.length, tail.length);
        return event;
    }

    /** Two events: "café" with the é split across two HTTP chunks, then content with an invalid 0xFF byte. */
    private static void badUtf8(final List<MiniHttpServer.Step> steps, final long due, final String prefix,
                                final boolean chat) {
        final String open = prefix + (chat ? "\"delta\":{\"content\":\"" : "\"text\":\"");
        final String close = chat ? "\"},\"finish_reason\":null}]}\n\n" : "\",\"finish_reason\":null}]}\n\n";
        final byte[] cafe = (open + "caf\u00e9" + close).getBytes(StandardCharsets.UTF_8);
        final int split = (open + "caf").getBytes(StandardCharsets.UTF_8).length + 1; // inside the two bytes of é
        steps.add(new MiniHttpServer.Step(due, MiniHttpServer.chunk(java.util.Arrays.copyOfRange(cafe, 0, split)), false));
        steps.add(new MiniHttpServer.Step(due, MiniHttpServer.chunk(java.util.Arrays.copyOfRange(cafe, split, cafe.length)), false));
        final byte[] bad = (open + "bad?" + close).getBytes(StandardCharsets.UTF_8);
        bad[open.getBytes(StandardCharsets.UTF_8).length + 3] = (byte) 0xFF;
        steps.add(new MiniHttpServer.Step(due, MiniHttpServer.chunk(bad), false));
    }

    /** A 200 event stream that never sends an event delimiter: 64 KiB chunks, one array reused, up to 4 GiB. */
    private static MiniHttpServer.Response endless(final long arrival, final Runnable onDone) {
        final byte[] block = new byte[64 * 1024];
        java.util.Arrays.fill(block, (byte) 'a');
        block[0] = 'd';
        final byte[] chunk = MiniHttpServer.chunk(block);
        final List<MiniHttpServer.Step> steps = new ArrayList<>();
        steps.add(new MiniHttpServer.Step(arrival, MiniHttpServer.head(200, "text/event-stream", -1, false), false));
        for (int i = 0; i < 65_536; i++) {
            steps.add(new MiniHttpServer.Step(arrival, chunk, false));
        }
        return new MiniHttpServer.Response(steps, true, onDone);
    }

    private static byte[] concat(final byte[] a, final byte[] b) {
        final byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private MiniHttpServer.Response embeddings(final JsonNode req, final String model, final long arrival,
                                               final Runnable onDone) throws JsonProcessingException {
        final JsonNode input = req.path("input");
        final int n = input.isArray() ? input.size() : 1;
        final long at = config.ttftMillis() > 0 ? arrival + (long) ((10 + 2.0 * n) * 1e6) : arrival;
        final ObjectNode resp = JSON.createObjectNode();
        resp.put("object", "list").put("model", model);
        final ArrayNode data = resp.putArray("data");
        for (int i = 0; i < n; i++) {
            final ObjectNode item = data.addObject().put("object", "embedding").put("index", i);
            final ArrayNode vec = item.putArray("embedding");
            final SplittableRandom r = new SplittableRandom((input.isArray() ? input.get(i) : input).asText().hashCode());
            for (int d = 0; d < EMBEDDING_DIM; d++) {
                vec.add((float) (r.nextDouble() * 2 - 1));
            }
        }
        usage(resp.putObject("usage"), 1, 0);
        return json(at, 200, JSON.writeValueAsString(resp), onDone);
    }

    /**
     * The longest reply the mock gives, whatever a request asks for: a reply is planned (and a non-streamed one
     * built) whole on an event loop, so {@code max_tokens: 2000000000} must not take the loop down.
     */
    public static final int MAX_REPLY_TOKENS = 16_384;

    /**
     * The cap from the request (at most {@link #MAX_REPLY_TOKENS}), else 0.8-1.2 x the prompt length (at least 16),
     * deterministic per prompt.
     */
    private static int replyLength(final JsonNode req, final String prompt) {
        for (final String key : new String[] {"max_completion_tokens", "max_tokens"}) {
            if (req.path(key).isNumber() && req.path(key).doubleValue() >= 1) {
                return (int) Math.min(req.path(key).doubleValue(), MAX_REPLY_TOKENS);
            }
        }
        final int promptTokens = Math.max(1, prompt.length() / 4);
        final double factor = 0.8 + 0.4 * (Math.floorMod(prompt.hashCode(), 1000) / 1000.0);
        return (int) Math.min(MAX_REPLY_TOKENS, Math.max(16, Math.round(promptTokens * factor)));
    }

    private static void usage(final ObjectNode u, final int prompt, final int completion) {
        u.put("prompt_tokens", prompt).put("completion_tokens", completion).put("total_tokens", prompt + completion);
    }

    private static double jitter(final SplittableRandom random, final double cv) {
        if (cv <= 0) {
            return 1.0;
        }
        final double sigma2 = Math.log(1 + cv * cv);
        final double u1 = Math.max(random.nextDouble(), 1e-12);
        final double gaussian = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * random.nextDouble());
        return Math.exp(-sigma2 / 2 + Math.sqrt(sigma2) * gaussian);
    }

    /** The request's JSON body, or null when it is not JSON. */
    private static JsonNode body(final MiniHttpServer.Request http) {
        try {
            return JSON.readTree(http.body());
        } catch (IOException e) {
            return null;
        }
    }

    /** A random stream of its own for one request's timing. */
    private SplittableRandom nextRandom() {
        synchronized (seedSource) {
            return seedSource.split();
        }
    }

    /** A 200 JSON answer due at {@code at}, for the other endpoint types. */
    static MiniHttpServer.Response jsonAt(final long at, final String body, final Runnable onDone) {
        return json(at, 200, body, onDone);
    }

    static MiniHttpServer.Response jsonAt(final long at, final String body, final Runnable onDone, final int status) {
        return json(at, status, body, onDone);
    }

    /** Responses, TGI and rankings requests (src-docs/endpoints.md), counted and recorded as chat requests are. */
    private MiniHttpServer.Response otherInference(final MiniHttpServer.Request http, final String path,
                                                   final long arrival) throws JsonProcessingException {
        final Runnable counted = () -> state.event("inference");
        final JsonNode req = body(http);
        if (req == null) {
            return json(arrival, 400, "{\"error\":\"invalid JSON body\"}", counted);
        }
        state.ledger().record(req, http.headers().get("x-correlation-id"));
        final MiniHttpServer.Response response;
        if (path.equals("/v1/ranking") || path.equals("/rerank") || path.equals("/v2/rerank")) {
            response = OtherEndpoints.rankings(path, req, arrival, counted);
        } else if (path.endsWith("/infer")) {
            response = OtherEndpoints.imageRetrieval(req, arrival, counted);
        } else if (path.equals("/v1/images/generations")) {
            response = OtherEndpoints.imageGeneration(req, arrival + (long) (config.ttftMillis() * 1e6),
                    (long) (config.itlMillis() * 1e6), counted);
        } else {
            final boolean messages = path.equals("/v1/messages");
            final boolean rag = path.equals("/rag/api/prompt");
            final JsonNode input = path.equals("/v1/responses") ? req.path("input")
                    : messages ? req.path("messages") : rag ? req.path("query").path(0) : req.path("inputs");
            final String prompt = input.isArray() ? PromptLedger.textOf(input.path(input.size() - 1).path("content"))
                    : input.asText("");
            final JsonNode cap = path.equals("/v1/responses") ? req.path("max_output_tokens")
                    : messages ? req.path("max_tokens") : req.path("parameters").path("max_new_tokens");
            final int tokens = cap.isNumber() && cap.doubleValue() >= 1
                    ? (int) Math.min(cap.doubleValue(), MAX_REPLY_TOKENS) : replyLength(req, prompt);
            final SplittableRandom random = nextRandom();
            final OtherEndpoints.Plan plan = new OtherEndpoints.Plan(tokens, prompt.hashCode(),
                    arrival + (long) (config.ttftMillis() * jitter(random, config.ttftJitterCv()) * 1e6),
                    (long) (config.itlMillis() * 1e6), Math.max(1, prompt.length() / 4));
            state.metrics().tokens(plan.promptTokens(), tokens);
            response = path.equals("/v1/responses")
                    ? OtherEndpoints.responses(req, req.path("stream").asBoolean(false), plan, counted)
                    : messages ? OtherEndpoints.messages(req, plan, counted)
                    : rag ? OtherEndpoints.solidoRag(String.valueOf(http.headers().get("accept"))
                            .contains("text/event-stream"), plan, counted)
                    : OtherEndpoints.huggingFace(path.equals("/generate_stream"), plan, counted);
        }
        return queued(response, arrival);
    }

    /**
     * The response planned as if served at once, moved back by its wait for a slot ({@code --max-slots}), and
     * counted in {@code /metrics}.
     */
    private MiniHttpServer.Response queued(final MiniHttpServer.Response planned, final long arrival) {
        final List<MiniHttpServer.Step> steps = planned.steps();
        final long end = steps.isEmpty() ? arrival : steps.get(steps.size() - 1).atNanos();
        final long wait = slots.admit(arrival, end - arrival) - arrival;
        state.metrics().planned(arrival, arrival + wait, end + wait);
        if (wait <= 0) {
            return planned;
        }
        final List<MiniHttpServer.Step> later = steps.stream()
                .map(s -> new MiniHttpServer.Step(s.atNanos() + wait, s.bytes(), s.drop())).toList();
        return new MiniHttpServer.Response(later, planned.close(), planned.onDone(), planned.ending());
    }

    private static MiniHttpServer.Response json(final long at, final int status, final String body, final Runnable onDone) {
        final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return once(at, MiniHttpServer.head(status, JSON_TYPE, bytes.length, false), bytes, onDone);
    }

    private static MiniHttpServer.Response once(final long at, final byte[] head, final byte[] body, final Runnable onDone) {
        final byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return new MiniHttpServer.Response(List.of(new MiniHttpServer.Step(at, all, false)), false, onDone);
    }
}
