package io.aiperf.engine.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.EndpointConfig;
import io.aiperf.engine.config.EndpointType;
import io.aiperf.engine.config.Secret;
import io.aiperf.engine.dataset.Conversation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Builds request bodies and headers exactly as AIPerf does (AIPerf's endpoint and streaming docs): generated fields first,
 * then {@code extra} over them, then {@code stream_options.include_usage} forced on streaming chat and
 * completions requests. Thread-safe.
 */
public final class RequestFactory {
    /** Header names whose values never appear in any export or log (AIPerf's endpoint and streaming docs). */
    public static final Set<String> SENSITIVE_HEADERS = Set.of("authorization", "proxy-authorization", "x-api-key",
            "api-key", "ocp-apim-subscription-key", "x-goog-api-key", "x-functions-key", "aeg-sas-key",
            "x-amz-security-token");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Anthropic requires {@code max_tokens}; upstream AIPerf sends this when the turn sets none. */
    static final int ANTHROPIC_DEFAULT_MAX_TOKENS = 16384;
    /** The API version sent unless the user's headers name one (Anthropic's API requires one). */
    static final String ANTHROPIC_VERSION = "2023-06-01";

    private final EndpointConfig endpoint;
    private final String userAgent;

    public RequestFactory(final EndpointConfig endpoint, final String version) {
        this.endpoint = endpoint;
        this.userAgent = "aiperf-java/" + version;
    }

    /** The JSON body for one prompt. */
    public ObjectNode body(final String model, final String prompt, final Integer maxTokens) {
        return body(model, null, List.of(prompt), maxTokens);
    }

    /**
     * The JSON body for a turn of a conversation (src-docs/datasets.md): chat sends the system prompt, then the
     * exchange as alternating user and assistant messages; the other endpoints get the texts joined by newlines.
     *
     * @param system the system prompt, or null
     * @param exchange user and assistant texts in turn, starting and ending with a user text
     */
    public ObjectNode body(final String model, final String system, final List<String> exchange,
                           final Integer maxTokens) {
        return body(model, system, exchange, List.of(), maxTokens);
    }

    /**
     * As {@link #body(String, String, List, Integer)}, with the images and audio of each user turn (multimodal chat,
     * AIPerf's endpoint docs): a user message with media is sent as content parts, text first.
     *
     * @param media the media of user turn k at index k (missing or empty: text only)
     */
    public ObjectNode body(final String model, final String system, final List<String> exchange,
                           final List<List<Conversation.Media>> media, final Integer maxTokens) {
        final ObjectNode body = JSON.createObjectNode();
        final EndpointType type = endpoint.type();
        switch (type) {
            case CHAT -> {
                messages(body.putArray("messages"), system, exchange, media, false);
                body.put("model", model);
                body.put("stream", endpoint.streaming());
                if (maxTokens != null) {
                    body.put(endpoint.useLegacyMaxTokens() ? "max_tokens" : "max_completion_tokens", maxTokens);
                }
            }
            case COMPLETIONS -> {
                body.put("prompt", joined(system, exchange));
                body.put("model", model);
                body.put("stream", endpoint.streaming());
                if (maxTokens != null && maxTokens > 0) {
                    body.put("max_tokens", maxTokens);
                }
            }
            case EMBEDDINGS -> {
                body.put("model", model);
                body.putArray("input").add(joined(system, exchange));
            }
            case NIM_EMBEDDINGS -> {
                body.putArray("input").add(joined(system, exchange));
                body.put("model", model);
                body.put("input_type", "query"); // NIM retrievers need it; --extra-inputs input_type:passage changes it
            }
            case CHAT_EMBEDDINGS -> {
                body.put("model", model);
                messages(body.putArray("messages"), system, exchange, media, false);
            }
            case RESPONSES -> {
                body.put("model", model);
                if (system == null && exchange.size() == 1 && mediaOf(media, 0).isEmpty()) {
                    body.put("input", exchange.get(0));
                } else {
                    messages(body.putArray("input"), system, exchange, media, true);
                }
                body.put("stream", endpoint.streaming());
                if (maxTokens != null) {
                    body.put("max_output_tokens", maxTokens);
                }
            }
            case MESSAGES -> {
                body.put("model", model);
                anthropicMessages(body.putArray("messages"), exchange, media);
                body.put("max_tokens", maxTokens != null ? maxTokens : ANTHROPIC_DEFAULT_MAX_TOKENS);
                body.put("stream", endpoint.streaming()); // always, as upstream AIPerf sends it
                if (system != null) {
                    body.put("system", system);
                }
            }
            case HUGGINGFACE_GENERATE -> {
                body.put("inputs", joined(system, exchange));
                final ObjectNode parameters = body.putObject("parameters");
                if (maxTokens != null) {
                    parameters.put("max_new_tokens", maxTokens);
                }
            }
            case IMAGE_RETRIEVAL -> {
                // NIM's shape: the images of the turn, no model field (AIPerf's endpoint docs)
                final com.fasterxml.jackson.databind.node.ArrayNode input = body.putArray("input");
                for (final Conversation.Media m : mediaOf(media, exchange.size() / 2)) {
                    if (m.kind() == Conversation.Media.Kind.IMAGE) {
                        input.addObject().put("type", "image_url").put("url", m.value());
                    }
                }
            }
            case IMAGE_GENERATION -> {
                // the last turn's text is the prompt; b64_json, as upstream asks (SGLang answers nothing else)
                body.put("prompt", exchange.get(exchange.size() - 1));
                body.put("model", model);
                body.put("response_format", "b64_json");
                body.put("n", 1);
                if (endpoint.streaming()) {
                    body.put("stream", true);
                }
            }
            case SOLIDO_RAG -> {
                body.putArray("query").add(exchange.get(exchange.size() - 1));
                body.putObject("filters").put("family", "Solido").put("tool", "SDE"); // upstream's fixed filters
                body.put("inference_model", model);
            }
            case TEMPLATE -> {
                return withExtra(endpoint.template().render(model, system, exchange, maxTokens,
                        endpoint.streaming()));
            }
            default -> throw new IllegalStateException(type.wireName() + " requests carry a query and passages");
        }
        withExtra(body);
        if ((type == EndpointType.CHAT || type == EndpointType.COMPLETIONS) && body.path("stream").asBoolean(false)) {
            final JsonNode options = body.get("stream_options");
            if (options == null || options.isNull()) {
                body.putObject("stream_options").put("include_usage", true);
            } else if (options.isObject() && !options.has("include_usage")) {
                ((ObjectNode) options).put("include_usage", true);
            }
            // --per-chunk-usage: cumulative usage on every chunk (a vLLM and TRT-LLM extension), unless set already
            if (type == EndpointType.CHAT && endpoint.perChunkUsage() && body.get("stream_options").isObject()
                    && !body.get("stream_options").has("continuous_usage_stats")) {
                ((ObjectNode) body.get("stream_options")).put("continuous_usage_stats", true);
            }
        }
        return body;
    }

    /**
     * The body of a rankings request (src-docs/endpoints.md): the query and the passages to rank, in the shape of
     * NVIDIA NIM, Hugging Face TEI or Cohere.
     */
    public ObjectNode rankingBody(final String model, final String query, final List<String> passages) {
        final ObjectNode body = JSON.createObjectNode();
        switch (endpoint.type()) {
            case NIM_RANKINGS -> {
                body.put("model", model);
                body.putObject("query").put("text", query);
                final com.fasterxml.jackson.databind.node.ArrayNode list = body.putArray("passages");
                passages.forEach(p -> list.addObject().put("text", p));
            }
            case HF_TEI_RANKINGS -> {
                body.put("query", query);
                final com.fasterxml.jackson.databind.node.ArrayNode list = body.putArray("texts");
                passages.forEach(list::add);
            }
            case COHERE_RANKINGS -> {
                body.put("model", model);
                body.put("query", query);
                final com.fasterxml.jackson.databind.node.ArrayNode list = body.putArray("documents");
                passages.forEach(list::add);
            }
            default -> throw new IllegalStateException(endpoint.type().wireName() + " is no rankings endpoint");
        }
        return withExtra(body);
    }

    /**
     * The system prompt, then the exchange; a user turn with media becomes content parts: chat's {@code text},
     * {@code image_url} and {@code input_audio}, or the Responses API's {@code input_text} and {@code input_image}.
     */
    private static void messages(final com.fasterxml.jackson.databind.node.ArrayNode messages, final String system,
                                 final List<String> exchange, final List<List<Conversation.Media>> media,
                                 final boolean responses) {
        if (system != null) {
            messages.addObject().put("role", "system").put("content", system);
        }
        for (int i = 0; i < exchange.size(); i++) {
            final ObjectNode m = messages.addObject().put("role", i % 2 == 0 ? "user" : "assistant");
            final List<Conversation.Media> parts = i % 2 == 0 ? mediaOf(media, i / 2) : List.of();
            if (parts.isEmpty()) {
                m.put("content", exchange.get(i));
                continue;
            }
            final com.fasterxml.jackson.databind.node.ArrayNode content = m.putArray("content");
            if (!exchange.get(i).isEmpty()) {
                content.addObject().put("type", responses ? "input_text" : "text").put("text", exchange.get(i));
            }
            for (final Conversation.Media p : parts) {
                if (p.kind() == Conversation.Media.Kind.IMAGE && responses) {
                    content.addObject().put("type", "input_image").put("image_url", p.value());
                } else if (p.kind() == Conversation.Media.Kind.IMAGE) {
                    content.addObject().put("type", "image_url").putObject("image_url").put("url", p.value());
                } else {
                    content.addObject().put("type", "input_audio").putObject("input_audio")
                            .put("data", p.audioData()).put("format", p.audioFormat());
                }
            }
        }
    }

    /**
     * Anthropic's messages: user and assistant turns (the system prompt goes at the top level); a user turn with
     * images becomes content blocks, text first, each image a {@code base64} source for a data URI, else a
     * {@code url} source. The Messages API takes no audio.
     */
    private static void anthropicMessages(final com.fasterxml.jackson.databind.node.ArrayNode messages,
                                          final List<String> exchange, final List<List<Conversation.Media>> media) {
        for (int i = 0; i < exchange.size(); i++) {
            final ObjectNode m = messages.addObject().put("role", i % 2 == 0 ? "user" : "assistant");
            final List<Conversation.Media> parts = i % 2 == 0 ? mediaOf(media, i / 2) : List.of();
            if (parts.isEmpty()) {
                m.put("content", exchange.get(i));
                continue;
            }
            final com.fasterxml.jackson.databind.node.ArrayNode content = m.putArray("content");
            if (!exchange.get(i).isEmpty()) {
                content.addObject().put("type", "text").put("text", exchange.get(i));
            }
            for (final Conversation.Media p : parts) {
                final ObjectNode source = content.addObject().put("type", "image").putObject("source");
                final String uri = p.value();
                final int comma = uri.indexOf(',');
                if (uri.startsWith("data:") && comma > 0) {
                    final String mediaType = uri.substring(5, comma).split(";", 2)[0];
                    source.put("type", "base64").put("media_type", mediaType.isEmpty() ? "image/png" : mediaType)
                            .put("data", uri.substring(comma + 1));
                } else {
                    source.put("type", "url").put("url", uri);
                }
            }
        }
    }

    private static List<Conversation.Media> mediaOf(final List<List<Conversation.Media>> media, final int userTurn) {
        return userTurn < media.size() && media.get(userTurn) != null ? media.get(userTurn) : List.of();
    }

    /** {@code extra} (from {@code --extra-inputs}) over the generated fields, as AIPerf merges it. */
    private ObjectNode withExtra(final ObjectNode body) {
        if (endpoint.extra() != null) {
            final Iterator<Map.Entry<String, JsonNode>> it = endpoint.extra().properties().iterator();
            while (it.hasNext()) {
                final Map.Entry<String, JsonNode> e = it.next();
                body.set(e.getKey(), e.getValue().deepCopy());
            }
        }
        return body;
    }

    /**
     * A row's own {@code extra} fields over a built body (upstream's per-row extra: shallow, and over
     * {@code --extra-inputs}); the body itself when the row has none.
     */
    public static ObjectNode withRowExtra(final ObjectNode body, final ObjectNode rowExtra) {
        if (rowExtra != null) {
            rowExtra.properties().forEach(e -> body.set(e.getKey(), e.getValue().deepCopy()));
        }
        return body;
    }

    static String joined(final String system, final List<String> exchange) {
        if (system == null && exchange.size() == 1) {
            return exchange.get(0);
        }
        final List<String> parts = new ArrayList<>(exchange.size() + 1);
        if (system != null) {
            parts.add(system);
        }
        parts.addAll(exchange);
        return String.join("\n", parts);
    }

    public static byte[] bytes(final JsonNode body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Headers shared by every request: user agent, user headers, auth, then transport headers, which win. */
    public RequestHeaders commonHeaders() {
        final Map<String, String> h = new LinkedHashMap<>();
        h.put("User-Agent", userAgent);
        endpoint.headers().forEach(h::put);
        authHeaders(endpoint).forEach(h::put);
        h.entrySet().removeIf(e -> e.getKey().equalsIgnoreCase("accept") || e.getKey().equalsIgnoreCase("content-type"));
        h.put("Accept", endpoint.streaming() ? "text/event-stream" : "application/json");
        return RequestHeaders.of(h);
    }

    /**
     * Credential headers in the endpoint's dialect, for inference, probes and control calls alike: OpenAI's bearer
     * token; for {@code messages} also Anthropic's {@code x-api-key} and {@code anthropic-version} (unless the user's
     * headers set it). Upstream AIPerf sends only the bearer token, which vLLM's and SGLang's {@code /v1/messages}
     * check; Anthropic's API wants the other two.
     */
    public static Map<String, String> authHeaders(final EndpointConfig endpoint) {
        if (endpoint.type() != EndpointType.MESSAGES) {
            return authHeaders(endpoint.apiKey());
        }
        final Map<String, String> h = new LinkedHashMap<>(authHeaders(endpoint.apiKey()));
        if (endpoint.apiKey() != null) {
            h.put("x-api-key", endpoint.apiKey().reveal());
        }
        if (endpoint.headers().keySet().stream().noneMatch(k -> k.equalsIgnoreCase("anthropic-version"))) {
            h.put("anthropic-version", ANTHROPIC_VERSION);
        }
        return h;
    }

    /** Credential headers (OpenAI dialect); shared with the control-plane client (the control-hooks contract in src-docs/control-hooks.md). */
    public static Map<String, String> authHeaders(final Secret apiKey) {
        return apiKey == null ? Map.of() : Map.of("Authorization", "Bearer " + apiKey.reveal());
    }

    public static boolean isSensitive(final String headerName) {
        return SENSITIVE_HEADERS.contains(headerName.toLowerCase(Locale.ROOT));
    }
}
