package io.aiperf.engine.mock;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The mock's answers for the endpoint types beyond OpenAI's chat, completions and embeddings (src-docs/endpoints.md):
 * OpenAI Responses ({@code /v1/responses}, streamed as {@code response.output_text.delta} events), Hugging Face TGI
 * ({@code /generate}, {@code /generate_stream}), and rankings in the shapes of NVIDIA NIM ({@code /v1/ranking}),
 * Hugging Face TEI ({@code /rerank}) and Cohere ({@code /v2/rerank}), and NIM image retrieval
 * ({@code /v1/image/infer}, {@code /v1/infer}), Anthropic Messages ({@code /v1/messages}), OpenAI image generation
 * ({@code /v1/images/generations}) and Solido RAG ({@code /rag/api/prompt}). Timing as the chat route: first token after
 * the TTFT, then one token per ITL. Stateless.
 */
final class OtherEndpoints {
    private static final ObjectMapper JSON = new ObjectMapper();

    private OtherEndpoints() {
    }

    /** What to say: the reply's tokens and when the first is due; {@code itlNanos} between the others. */
    record Plan(int tokens, int seed, long firstTokenAt, long itlNanos, int promptTokens) {
    }

    static MiniHttpServer.Response responses(final JsonNode req, final boolean stream, final Plan plan,
                                             final Runnable onDone) throws JsonProcessingException {
        final ObjectNode usage = JSON.createObjectNode().put("input_tokens", plan.promptTokens())
                .put("output_tokens", plan.tokens()).put("total_tokens", plan.promptTokens() + plan.tokens());
        if (!stream) {
            final ObjectNode resp = JSON.createObjectNode().put("object", "response").put("status", "completed");
            resp.put("model", req.path("model").asText("mock-model"));
            final ArrayNode output = resp.putArray("output");
            output.addObject().put("type", "message").put("role", "assistant").putArray("content").addObject()
                    .put("type", "output_text").put("text", text(plan));
            resp.set("usage", usage);
            return json(plan.firstTokenAt() + plan.itlNanos() * plan.tokens(), resp, onDone);
        }
        final List<String> events = new ArrayList<>();
        for (int i = 0; i < plan.tokens(); i++) {
            events.add("event: response.output_text.delta\ndata: " + JSON.writeValueAsString(JSON.createObjectNode()
                    .put("type", "response.output_text.delta").put("delta", ReplyWords.token(plan.seed(), i))) + "\n\n");
        }
        final ObjectNode done = JSON.createObjectNode().put("type", "response.completed");
        done.putObject("response").put("status", "completed").set("usage", usage);
        return sse(plan, events, "event: response.completed\ndata: " + JSON.writeValueAsString(done) + "\n\n", onDone);
    }

    /** The reply's first tokens a thinking request ({@code "thinking": {"type": "enabled"}}) gets as thinking. */
    static final int THINKING_TOKENS = 3;

    /**
     * Anthropic Messages, with or without an {@code anthropic-version} header (upstream AIPerf sends none); streamed
     * as {@code message_start} (the input tokens), per block {@code content_block_start}, {@code content_block_delta}
     * events and {@code content_block_stop}, then {@code message_delta} (the output tokens) and
     * {@code message_stop}. A thinking request gets its first tokens as a thinking block.
     */
    static MiniHttpServer.Response messages(final JsonNode req, final Plan plan,
                                            final Runnable onDone) throws JsonProcessingException {
        final String model = req.path("model").asText("mock-model");
        final int thinking = "enabled".equals(req.path("thinking").path("type").asText())
                ? Math.min(THINKING_TOKENS, plan.tokens() - 1) : 0;
        if (!req.path("stream").asBoolean(false)) {
            final ObjectNode resp = JSON.createObjectNode().put("id", "msg_mock").put("type", "message")
                    .put("role", "assistant").put("model", model);
            final ArrayNode content = resp.putArray("content");
            if (thinking > 0) {
                content.addObject().put("type", "thinking").put("thinking", words(plan, 0, thinking))
                        .put("signature", "mock");
            }
            content.addObject().put("type", "text").put("text", words(plan, thinking, plan.tokens()));
            resp.put("stop_reason", "max_tokens");
            resp.putObject("usage").put("input_tokens", plan.promptTokens()).put("output_tokens", plan.tokens());
            return json(plan.firstTokenAt() + plan.itlNanos() * plan.tokens(), resp, onDone);
        }
        final ObjectNode start = JSON.createObjectNode().put("type", "message_start");
        start.putObject("message").put("id", "msg_mock").put("type", "message").put("role", "assistant")
                .put("model", model).putArray("content");
        ((ObjectNode) start.path("message")).putObject("usage").put("input_tokens", plan.promptTokens())
                .put("output_tokens", 1);
        final List<String> events = new ArrayList<>();
        for (int i = 0; i < plan.tokens(); i++) {
            final StringBuilder e = new StringBuilder();
            if (i == 0) {
                e.append(event("message_start", start));
            }
            final int block = i < thinking ? 0 : thinking > 0 ? 1 : 0;
            if (i == 0 || i == thinking) {
                if (i == thinking && thinking > 0) {
                    e.append(event("content_block_stop", JSON.createObjectNode().put("type", "content_block_stop")
                            .put("index", 0)));
                }
                final ObjectNode open = JSON.createObjectNode().put("type", "content_block_start").put("index", block);
                if (i < thinking) {
                    open.putObject("content_block").put("type", "thinking").put("thinking", "");
                } else {
                    open.putObject("content_block").put("type", "text").put("text", "");
                }
                e.append(event("content_block_start", open));
            }
            final ObjectNode delta = JSON.createObjectNode().put("type", "content_block_delta").put("index", block);
            if (i < thinking) {
                delta.putObject("delta").put("type", "thinking_delta").put("thinking", ReplyWords.token(plan.seed(), i));
            } else {
                delta.putObject("delta").put("type", "text_delta").put("text", ReplyWords.token(plan.seed(), i));
            }
            events.add(e.append(event("content_block_delta", delta)).toString());
        }
        final ObjectNode end = JSON.createObjectNode().put("type", "message_delta");
        end.putObject("delta").put("stop_reason", "max_tokens").putNull("stop_sequence");
        end.putObject("usage").put("output_tokens", plan.tokens());
        return sse(plan, events, event("content_block_stop", JSON.createObjectNode().put("type",
                "content_block_stop").put("index", thinking > 0 ? 1 : 0)) + event("message_delta", end)
                + event("message_stop", JSON.createObjectNode().put("type", "message_stop")), onDone);
    }

    private static String event(final String name, final ObjectNode data) throws JsonProcessingException {
        return "event: " + name + "\ndata: " + JSON.writeValueAsString(data) + "\n\n";
    }

    private static String words(final Plan plan, final int from, final int to) {
        final StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            sb.append(ReplyWords.token(plan.seed(), i));
        }
        return sb.toString();
    }

    static MiniHttpServer.Response huggingFace(final boolean stream, final Plan plan, final Runnable onDone)
            throws JsonProcessingException {
        if (!stream) {
            return json(plan.firstTokenAt() + plan.itlNanos() * plan.tokens(),
                    JSON.createObjectNode().put("generated_text", text(plan)), onDone);
        }
        final List<String> events = new ArrayList<>();
        for (int i = 0; i < plan.tokens(); i++) {
            final ObjectNode e = JSON.createObjectNode();
            e.putObject("token").put("id", i).put("text", ReplyWords.token(plan.seed(), i)).put("special", false);
            if (i == plan.tokens() - 1) {
                e.put("generated_text", text(plan));
            } else {
                e.putNull("generated_text");
            }
            events.add("data: " + JSON.writeValueAsString(e) + "\n\n");
        }
        return sse(plan, events, "", onDone);
    }

    /** Scores for the passages: NIM {@code rankings}, TEI's bare list, or Cohere {@code results}. */
    static MiniHttpServer.Response rankings(final String path, final JsonNode req, final long at, final Runnable onDone)
            throws JsonProcessingException {
        final JsonNode passages = path.equals("/v1/ranking") ? req.path("passages")
                : path.equals("/rerank") ? req.path("texts") : req.path("documents");
        final int n = Math.max(1, passages.size());
        final ArrayNode list = JSON.createArrayNode();
        for (int i = 0; i < n; i++) {
            final double score = 1.0 / (i + 1);
            switch (path) {
                case "/v1/ranking" -> list.addObject().put("index", i).put("logit", score);
                case "/rerank" -> list.addObject().put("index", i).put("score", score);
                default -> list.addObject().put("index", i).put("relevance_score", score);
            }
        }
        final long due = at + (long) (2e6 * n);
        if (path.equals("/rerank")) {
            return MockServer.jsonAt(due, JSON.writeValueAsString(list), onDone);
        }
        final ObjectNode resp = JSON.createObjectNode();
        resp.set(path.equals("/v1/ranking") ? "rankings" : "results", list);
        return json(due, resp, onDone);
    }

    /** NIM image retrieval: one embedding per image part of {@code input}, 3 ms per image; 400 without images. */
    static MiniHttpServer.Response imageRetrieval(final JsonNode req, final long at, final Runnable onDone)
            throws JsonProcessingException {
        int images = 0;
        for (final JsonNode part : req.path("input")) {
            images += "image_url".equals(part.path("type").asText()) && part.path("url").isTextual() ? 1 : 0;
        }
        if (images == 0) {
            return MockServer.jsonAt(at, "{\"error\": \"input needs image_url parts\"}", onDone);
        }
        final ObjectNode resp = JSON.createObjectNode();
        final ArrayNode data = resp.putArray("data");
        for (int i = 0; i < images; i++) {
            data.addObject().put("index", i).putArray("embedding").add(0.5).add(-0.25);
        }
        return json(at + 3_000_000L * images, resp, onDone);
    }

    /** A 1x1 PNG: every image the mock generates (the benchmark times the exchange, not the picture). */
    static final String PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
    /** Denoising steps the mock pretends to run: one ITL each, after the TTFT. */
    static final int IMAGE_STEPS = 4;

    /**
     * OpenAI image generation: {@code n} images (at most 4) as {@code b64_json} in {@code data[]}, due after the TTFT
     * and {@link #IMAGE_STEPS} ITLs; 400 without a prompt. Streamed ({@code stream: true}): {@code partial_images}
     * (at most 3) {@code image_generation.partial_image} events, one per ITL, then {@code image_generation.completed}.
     */
    static MiniHttpServer.Response imageGeneration(final JsonNode req, final long firstAt, final long itlNanos,
                                                   final Runnable onDone) throws JsonProcessingException {
        if (!req.path("prompt").isTextual() || req.path("prompt").asText().isEmpty()) {
            return MockServer.jsonAt(firstAt, "{\"error\": {\"message\": \"prompt is required\", "
                    + "\"type\": \"invalid_request_error\"}}", onDone, 400);
        }
        final long due = firstAt + itlNanos * IMAGE_STEPS;
        if (!req.path("stream").asBoolean(false)) {
            final ObjectNode resp = JSON.createObjectNode().put("created", 0);
            final ArrayNode data = resp.putArray("data");
            final int n = Math.max(1, Math.min(4, req.path("n").asInt(1)));
            for (int i = 0; i < n; i++) {
                data.addObject().put("b64_json", PNG_1X1);
            }
            resp.put("size", req.path("size").asText("1024x1024"));
            return json(due, resp, onDone);
        }
        final int partials = Math.max(0, Math.min(3, req.path("partial_images").asInt(0)));
        final List<String> events = new ArrayList<>();
        for (int i = 0; i < partials; i++) {
            events.add(event("image_generation.partial_image", JSON.createObjectNode()
                    .put("type", "image_generation.partial_image").put("b64_json", PNG_1X1)
                    .put("partial_image_index", i)));
        }
        events.add(event("image_generation.completed", JSON.createObjectNode()
                .put("type", "image_generation.completed").put("b64_json", PNG_1X1)));
        // the events spread evenly up to the final image, which comes when a whole answer would
        final long step = events.size() == 1 ? 0 : (due - firstAt) / (events.size() - 1);
        final long first = events.size() == 1 ? due : firstAt;
        return sse(new Plan(events.size(), 0, first, step, 0), events, "", onDone);
    }

    /**
     * Solido RAG: the answer's {@code content} and the {@code sources} it was drawn from; streamed (the client asks for
     * {@code text/event-stream}, as the request body has no stream field) one {@code content} token per event, then
     * the sources.
     */
    static MiniHttpServer.Response solidoRag(final boolean stream, final Plan plan, final Runnable onDone)
            throws JsonProcessingException {
        final ArrayNode sources = JSON.createArrayNode();
        sources.addObject().put("title", "Mock Solido Guide").put("score", 0.9);
        if (!stream) {
            final ObjectNode resp = JSON.createObjectNode().put("content", text(plan));
            resp.set("sources", sources);
            return json(plan.firstTokenAt() + plan.itlNanos() * plan.tokens(), resp, onDone);
        }
        final List<String> events = new ArrayList<>();
        for (int i = 0; i < plan.tokens(); i++) {
            events.add("data: " + JSON.writeValueAsString(JSON.createObjectNode()
                    .put("content", ReplyWords.token(plan.seed(), i))) + "\n\n");
        }
        final ObjectNode done = JSON.createObjectNode().put("content", "");
        done.set("sources", sources);
        return sse(plan, events, "data: " + JSON.writeValueAsString(done) + "\n\n", onDone);
    }

    private static String text(final Plan plan) {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < plan.tokens(); i++) {
            sb.append(ReplyWords.token(plan.seed(), i));
        }
        return sb.toString();
    }

    private static MiniHttpServer.Response json(final long at, final ObjectNode body, final Runnable onDone)
            throws JsonProcessingException {
        return MockServer.jsonAt(at, JSON.writeValueAsString(body), onDone);
    }

    /** One chunk per event at its token's time, then the tail and the end of the body. */
    private static MiniHttpServer.Response sse(final Plan plan, final List<String> events, final String tail,
                                               final Runnable onDone) {
        final List<MiniHttpServer.Step> steps = new ArrayList<>(events.size() + 2);
        steps.add(new MiniHttpServer.Step(plan.firstTokenAt(), MiniHttpServer.head(200, "text/event-stream", -1,
                false), false));
        long due = plan.firstTokenAt();
        for (int i = 0; i < events.size(); i++) {
            due = plan.firstTokenAt() + plan.itlNanos() * i;
            steps.add(new MiniHttpServer.Step(due, MiniHttpServer.chunk(events.get(i).getBytes(StandardCharsets.UTF_8)),
                    false));
        }
        final byte[] last = tail.isEmpty() ? MiniHttpServer.LAST_CHUNK
                : concat(MiniHttpServer.chunk(tail.getBytes(StandardCharsets.UTF_8)), MiniHttpServer.LAST_CHUNK);
        steps.add(new MiniHttpServer.Step(due, last, false));
        return new MiniHttpServer.Response(steps, false, onDone);
    }

    private static byte[] concat(final byte[] a, final byte[] b) {
        final byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
