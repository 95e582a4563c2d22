package io.aiperf.engine.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * An OpenAI-compatible mock inference server with AIPerf's latency model (reference §8) and the admin routes
 * of the control-hooks contract. Tokens are sent at absolute deadlines (start + TTFT + i x ITL), so the
 * latency it shows does not drift with scheduling noise. Runs on the JDK's HTTP server with one thread per
 * in-flight request (streams sleep between tokens). Thread-safe; start with {@link #start}, stop with
 * {@link #close}.
 */
public final class MockServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int EMBEDDING_DIM = 768;

    private final MockServerConfig config;
    private final ControlState state = new ControlState();
    private final HttpServer server;
    private final ExecutorService executor;
    private final SplittableRandom seedSource;
    private final AtomicInteger ids = new AtomicInteger();

    private MockServer(final MockServerConfig config) throws IOException {
        this.config = config;
        this.seedSource = new SplittableRandom(config.randomSeed());
        // Without TCP_NODELAY small SSE writes wait for delayed ACKs and TTFT gains tens of milliseconds.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        this.server = HttpServer.create(new InetSocketAddress(config.host(), config.port()), 4096);
        final AtomicInteger threads = new AtomicInteger();
        this.executor = Executors.newCachedThreadPool(r -> {
            final Thread t = new Thread(r, "mock-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        config.faults().forEach(state::addFault);
    }

    public static MockServer start(final MockServerConfig config) throws IOException {
        final MockServer s = new MockServer(config);
        s.server.start();
        return s;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String url() {
        return "http://" + config.host() + ":" + port();
    }

    public ControlState controlState() {
        return state;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Thrown to make the JDK server drop the connection without a (complete) response. */
    private static final class DropConnection extends RuntimeException {
        DropConnection() {
            super("mock: dropping connection", null, false, false);
        }
    }

    private void handle(final HttpExchange ex) throws IOException {
        final long arrival = System.nanoTime(); // latency is modelled from the moment the request is handed to us
        final String path = ex.getRequestURI().getPath();
        final String method = ex.getRequestMethod();
        final byte[] body;
        try (InputStream in = ex.getRequestBody()) {
            body = in.readAllBytes();
        }
        final Fault fault = state.onCall(path);
        if (fault != null) {
            switch (fault.kind()) {
                case STATUS -> {
                    send(ex, fault.status(), "{\"error\":\"injected fault\"}");
                    return;
                }
                case CLOSE -> throw new DropConnection();
                case DELAY -> sleepMillis(fault.delayMillis());
                default -> { }
            }
        }
        switch (path) {
            case "/v1/chat/completions", "/v1/completions", "/v1/embeddings" -> {
                if (!method.equals("POST")) {
                    send(ex, 405, "{\"error\":\"Method Not Allowed\"}");
                } else if (!authorized(ex)) {
                    send(ex, 401, "{\"error\": \"Unauthorized\"}");
                } else {
                    inference(ex, path, body, fault, arrival);
                }
            }
            case "/reset_prefix_cache", "/flush_cache" -> admin(ex, method, "reset");
            case "/start_profile" -> admin(ex, method, "start_profile");
            case "/stop_profile" -> admin(ex, method, "stop_profile");
            case "/admin/control-state" -> send(ex, 200, JSON.writeValueAsString(state.snapshot()));
            case "/admin/faults" -> adminFault(ex, body);
            case "/admin/clear" -> {
                state.clear();
                send(ex, 200, "{\"cleared\":true}");
            }
            case "/v1/models" -> send(ex, 200, "{\"object\":\"list\",\"data\":[{\"id\":\"mock-model\",\"object\":\"model\"}]}");
            case "/health" -> send(ex, 200, JSON.writeValueAsString(Map.of("status", "healthy",
                    "ttft_ms", config.ttftMillis(), "itl_ms", config.itlMillis(),
                    "auth", config.apiKey() != null)));
            default -> send(ex, 404, "{\"error\":\"Not Found\"}");
        }
    }

    private void admin(final HttpExchange ex, final String method, final String event) throws IOException {
        if (!method.equals("POST")) {
            send(ex, 405, "{\"error\":\"Method Not Allowed\"}");
            return;
        }
        if (config.apiKey() != null && authorized(ex)) {
            state.authorizedAdminCall();
        }
        state.event(event);
        send(ex, 200, "{\"success\":true}");
    }

    private void adminFault(final HttpExchange ex, final byte[] body) throws IOException {
        try {
            final JsonNode spec = JSON.readTree(body);
            state.addFault(Fault.parse(spec.path("fault").asText()));
            send(ex, 200, "{\"armed\":true}");
        } catch (IOException | IllegalArgumentException e) {
            send(ex, 400, JSON.writeValueAsString(Map.of("error", String.valueOf(e.getMessage()))));
        }
    }

    private boolean authorized(final HttpExchange ex) {
        if (config.apiKey() == null) {
            return true;
        }
        final String given = ex.getRequestHeaders().getFirst("Authorization");
        return given != null && (given.equals(config.apiKey()) || given.equals("Bearer " + config.apiKey()));
    }

    private void inference(final HttpExchange ex, final String path, final byte[] body, final Fault fault,
                           final long arrival) throws IOException {
        final JsonNode req;
        try {
            req = JSON.readTree(body);
        } catch (IOException e) {
            send(ex, 400, "{\"error\":\"invalid JSON body\"}");
            return;
        }
        final SplittableRandom random;
        synchronized (seedSource) {
            random = seedSource.split();
        }
        if (config.errorRatePercent() > 0 && random.nextDouble() * 100 < config.errorRatePercent()) {
            send(ex, 500, "{\"error\":{\"message\":\"mock: injected error\",\"type\":\"server_error\"}}");
            state.event("inference");
            return;
        }
        if (fault != null && fault.kind() == Fault.Kind.GARBAGE) {
            final boolean stream = req.path("stream").asBoolean(false);
            ex.getResponseHeaders().set("Content-Type", stream ? "text/event-stream" : "application/json");
            send(ex, 200, stream ? "data: {not json\n\ndata: [DONE]\n\n" : "<html>garbage</html>");
            state.event("inference");
            return;
        }
        final String model = req.path("model").asText("mock-model");
        if (path.equals("/v1/embeddings")) {
            embeddings(ex, req, model, arrival);
            state.event("inference");
            return;
        }
        final boolean chat = path.equals("/v1/chat/completions");
        final String prompt = chat ? req.path("messages").path(req.path("messages").size() - 1).path("content").asText("")
                : req.path("prompt").asText("");
        final int tokens = replyLength(req, prompt);
        final int seed = prompt.hashCode();
        final double ttftFactor = jitter(random, config.ttftJitterCv());
        final long firstTokenAt = arrival + (long) (config.ttftMillis() * ttftFactor * 1_000_000L);
        final long itlNanos = (long) (config.itlMillis() * 1_000_000L);
        final String id = (chat ? "chatcmpl-" : "cmpl-") + ids.incrementAndGet();
        final int promptTokens = Math.max(1, prompt.length() / 4);
        if (req.path("stream").asBoolean(false)) {
            final boolean usage = req.path("stream_options").path("include_usage").asBoolean(false);
            stream(ex, chat, id, model, tokens, seed, firstTokenAt, itlNanos, random, usage, promptTokens,
                    fault != null && fault.kind() == Fault.Kind.TRUNCATE);
        } else {
            sleepUntil(firstTokenAt + itlNanos * tokens);
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
            send(ex, 200, JSON.writeValueAsString(resp));
        }
        state.event("inference");
    }

    private void stream(final HttpExchange ex, final boolean chat, final String id, final String model,
                        final int tokens, final int seed, final long firstTokenAt, final long itlNanos,
                        final SplittableRandom random, final boolean includeUsage, final int promptTokens,
                        final boolean truncate) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "text/event-stream");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        ex.sendResponseHeaders(200, 0);
        final OutputStream out = ex.getResponseBody();
        final String prefix = "data: {\"id\":\"" + id + "\",\"object\":\"" + (chat ? "chat.completion.chunk" : "text_completion")
                + "\",\"model\":" + JSON.writeValueAsString(model) + ",\"choices\":[{\"index\":0,";
        long due = firstTokenAt;
        for (int i = 0; i < tokens; i++) {
            if (i > 0) {
                due += (long) (itlNanos * jitter(random, config.itlJitterCv()));
            }
            sleepUntil(due);
            if (truncate && i == tokens / 2) {
                out.flush();
                throw new DropConnection();
            }
            final String word = ReplyWords.token(seed, i);
            final String event = chat
                    ? prefix + "\"delta\":{" + (i == 0 ? "\"role\":\"assistant\"," : "") + "\"content\":\"" + word
                    + "\"},\"finish_reason\":null}]}\n\n"
                    : prefix + "\"text\":\"" + word + "\",\"finish_reason\":null}]}\n\n";
            out.write(event.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
        final StringBuilder tail = new StringBuilder();
        tail.append(prefix).append(chat ? "\"delta\":{}," : "\"text\":\"\",").append("\"finish_reason\":\"length\"}]}\n\n");
        if (includeUsage) {
            final ObjectNode u = JSON.createObjectNode();
            u.put("id", id).put("model", model).putArray("choices");
            usage(u.putObject("usage"), promptTokens, tokens);
            tail.append("data: ").append(JSON.writeValueAsString(u)).append("\n\n");
        }
        tail.append("data: [DONE]\n\n");
        out.write(tail.toString().getBytes(StandardCharsets.UTF_8));
        out.close();
    }

    private void embeddings(final HttpExchange ex, final JsonNode req, final String model, final long arrival)
            throws IOException {
        final JsonNode input = req.path("input");
        final int n = input.isArray() ? input.size() : 1;
        if (config.ttftMillis() > 0) {
            sleepUntil(arrival + (long) ((10 + 2.0 * n) * 1_000_000L));
        }
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
        send(ex, 200, JSON.writeValueAsString(resp));
    }

    /** The cap from the request, else 0.8-1.2 x the prompt length (at least 16), deterministic per prompt. */
    private static int replyLength(final JsonNode req, final String prompt) {
        for (final String key : new String[] {"max_completion_tokens", "max_tokens"}) {
            if (req.path(key).isInt() && req.path(key).intValue() > 0) {
                return req.path(key).intValue();
            }
        }
        final int promptTokens = Math.max(1, prompt.length() / 4);
        final double factor = 0.8 + 0.4 * (Math.floorMod(prompt.hashCode(), 1000) / 1000.0);
        return Math.max(16, (int) Math.round(promptTokens * factor));
    }

    private static void usage(final ObjectNode u, final int prompt, final int completion) {
        u.put("prompt_tokens", prompt).put("completion_tokens", completion).put("total_tokens", prompt + completion);
    }

    private static double jitter(final SplittableRandom random, final double cv) {
        if (cv <= 0) {
            return 1.0;
        }
        final double sigma2 = Math.log(1 + cv * cv);
        final double gaussian = gaussian(random);
        return Math.exp(-sigma2 / 2 + Math.sqrt(sigma2) * gaussian);
    }

    private static double gaussian(final SplittableRandom r) {
        final double u1 = Math.max(r.nextDouble(), 1e-12);
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    private static void sleepUntil(final long deadlineNanos) {
        long left;
        while ((left = deadlineNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    private static void sleepMillis(final long millis) {
        sleepUntil(System.nanoTime() + millis * 1_000_000L);
    }

    private static void send(final HttpExchange ex, final int status, final String body) throws IOException {
        final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        if (!ex.getResponseHeaders().containsKey("Content-Type")) {
            ex.getResponseHeaders().set("Content-Type", "application/json");
        }
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }
}
