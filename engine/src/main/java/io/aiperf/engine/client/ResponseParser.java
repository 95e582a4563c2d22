package io.aiperf.engine.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.config.EndpointConfig;
import java.io.IOException;

/**
 * Reads one response object (a whole body, or one SSE event's data) into a {@link ChunkParser.Chunk}
 * (src-docs/endpoints.md). OpenAI's shapes (chat, completions, embeddings) go through the allocation-free
 * {@link ChunkParser}; the other endpoint types, less often driven at tens of thousands of requests per second, read
 * a JSON tree. Implementations are stateless.
 */
@FunctionalInterface
public interface ResponseParser {
    ObjectMapper JSON = new ObjectMapper();

    /** Throws IOException for malformed JSON (callers skip the event or fail the request). */
    void parse(byte[] buf, int off, int len, ChunkParser.Chunk out) throws IOException;

    ResponseParser OPENAI = ChunkParser::parse;

    /** The parser for an endpoint's answers. */
    static ResponseParser of(final EndpointConfig endpoint) {
        return switch (endpoint.type()) {
            case CHAT, COMPLETIONS, EMBEDDINGS, CHAT_EMBEDDINGS, NIM_EMBEDDINGS -> OPENAI;
            case RESPONSES -> tree(ResponseParser::responses);
            case MESSAGES -> tree(ResponseParser::anthropic);
            case HUGGINGFACE_GENERATE -> tree(ResponseParser::huggingFace);
            case NIM_RANKINGS, HF_TEI_RANKINGS, COHERE_RANKINGS -> tree(ResponseParser::rankings);
            case TEMPLATE -> raw(endpoint.template().responseField()); // null: detected, as upstream's
            case IMAGE_RETRIEVAL -> tree((node, out) -> out.hasEmbedding = node.path("data").isArray()
                    && !node.path("data").isEmpty());
            case IMAGE_GENERATION -> tree(ResponseParser::images);
            case SOLIDO_RAG -> tree((node, out) -> out.content = node.path("content").isTextual()
                    ? node.path("content").asText() : null);
            case RAW -> raw(endpoint.extra() == null ? null : endpoint.extra().path("response_field").asText(null));
        };
    }

    /**
     * Answers to raw payloads (upstream's raw endpoint): the text at {@code responseField} when given (a path of
     * fields and list indexes, {@code choices[0].message.content}: the part of JMESPath such a field uses), else
     * detected: OpenAI's shapes first, then the Responses API, Hugging Face and rankings.
     */
    static ResponseParser raw(final String responseField) {
        if (responseField != null && !responseField.isBlank()) {
            final String[] path = responseField.replaceAll("\\[(\\d+)]", ".$1").replaceAll("^\\.", "").split("\\.");
            return tree((node, out) -> template(node, path, out));
        }
        final ResponseParser detected = tree((node, out) -> {
            responses(node, out);
            if (!out.isContentResponse()) {
                huggingFace(node, out);
            }
            if (!out.isContentResponse()) {
                rankings(node, out);
            }
        });
        return (buf, off, len, out) -> {
            OPENAI.parse(buf, off, len, out);
            if (!out.isContentResponse() && out.errorMessage == null) {
                final boolean usage = out.hasUsage;
                final Integer prompt = out.promptTokens;
                final Integer completion = out.completionTokens;
                final Integer total = out.totalTokens;
                final Integer cacheRead = out.cacheReadTokens;
                detected.parse(buf, off, len, out);
                if (usage && !out.hasUsage) { // an OpenAI usage-only chunk: keep what it said
                    out.hasUsage = true;
                    out.promptTokens = prompt;
                    out.completionTokens = completion;
                    out.totalTokens = total;
                    out.cacheReadTokens = cacheRead;
                }
            }
        };
    }

    /** A parser that reads the object as a tree and hands it to {@code reader}. */
    private static ResponseParser tree(final java.util.function.BiConsumer<JsonNode, ChunkParser.Chunk> reader) {
        return (buf, off, len, out) -> {
            out.reset();
            final JsonNode node = JSON.readTree(buf, off, len);
            if (node == null || node.isMissingNode()) {
                throw new IOException("empty");
            }
            final JsonNode error = node.path("error");
            if (error.isObject() || error.isTextual()) {
                out.errorType = error.isObject() ? error.path("type").asText("ServerError") : "ServerError";
                out.errorMessage = error.isObject() ? error.path("message").asText(error.toString()) : error.asText();
                return;
            }
            reader.accept(node, out);
        };
    }

    /**
     * OpenAI Responses: streamed {@code response.output_text.delta} and reasoning delta events, the usage in
     * {@code response.completed}; a whole answer's {@code output[].content[].text}.
     */
    private static void responses(final JsonNode node, final ChunkParser.Chunk out) {
        final String type = node.path("type").asText("");
        if (type.endsWith("output_text.delta")) {
            out.content = node.path("delta").asText(null);
            return;
        }
        if (type.startsWith("response.reasoning") && type.endsWith(".delta")) {
            out.reasoning = node.path("delta").asText(null);
            return;
        }
        final JsonNode response = type.equals("response.completed") ? node.path("response") : node;
        if (type.isEmpty()) { // a whole answer
            final StringBuilder text = new StringBuilder();
            final StringBuilder reasoning = new StringBuilder();
            for (final JsonNode item : response.path("output")) {
                for (final JsonNode c : item.path("content")) {
                    if ("output_text".equals(c.path("type").asText())) {
                        text.append(c.path("text").asText(""));
                    }
                }
                if ("reasoning".equals(item.path("type").asText())) {
                    for (final JsonNode s : item.path("summary")) {
                        reasoning.append(s.path("text").asText(""));
                    }
                }
            }
            out.content = text.length() == 0 ? null : text.toString();
            out.reasoning = reasoning.length() == 0 ? null : reasoning.toString();
        }
        final JsonNode usage = response.path("usage");
        if (usage.isObject()) {
            out.hasUsage = true;
            out.promptTokens = integer(usage.path("input_tokens"));
            out.completionTokens = integer(usage.path("output_tokens"));
            out.totalTokens = integer(usage.path("total_tokens"));
            out.reasoningTokens = integer(usage.path("output_tokens_details").path("reasoning_tokens"));
            out.cacheReadTokens = integer(usage.path("input_tokens_details").path("cached_tokens"));
        }
    }

    /**
     * Anthropic Messages: streamed {@code content_block_delta} events ({@code text_delta} as content,
     * {@code thinking_delta} as reasoning, a tool call's {@code input_json_delta} as content), the usage split over
     * {@code message_start} (input) and {@code message_delta} (output); a whole answer ({@code type: message}) with
     * its content blocks and usage. Other events ({@code ping}, block starts and stops, {@code message_stop}) carry
     * nothing the metrics need.
     */
    private static void anthropic(final JsonNode node, final ChunkParser.Chunk out) {
        switch (node.path("type").asText("")) {
            case "content_block_delta" -> {
                final JsonNode delta = node.path("delta");
                switch (delta.path("type").asText("")) {
                    case "text_delta" -> out.content = delta.path("text").asText(null);
                    case "thinking_delta" -> out.reasoning = delta.path("thinking").asText(null);
                    case "input_json_delta" -> out.content = delta.path("partial_json").asText(null);
                    default -> { } // signature_delta: no tokens
                }
            }
            case "message_start" -> anthropicUsage(node.path("message").path("usage"), out);
            case "message_delta" -> anthropicUsage(node.path("usage"), out);
            case "message" -> {
                final StringBuilder text = new StringBuilder();
                final StringBuilder thinking = new StringBuilder();
                for (final JsonNode block : node.path("content")) {
                    switch (block.path("type").asText("")) {
                        case "text" -> text.append(block.path("text").asText(""));
                        case "thinking" -> thinking.append(block.path("thinking").asText(""));
                        case "tool_use" -> {
                            text.append(block.path("name").asText(""));
                            if (block.path("input").isObject() && !block.path("input").isEmpty()) {
                                text.append(block.path("input").toString());
                            }
                        }
                        default -> { }
                    }
                }
                out.content = text.length() == 0 ? null : text.toString();
                out.reasoning = thinking.length() == 0 ? null : thinking.toString();
                anthropicUsage(node.path("usage"), out);
                out.partialUsage = false; // a whole answer's usage is all there is
            }
            default -> { }
        }
    }

    /**
     * Anthropic's usage: {@code input_tokens} leaves out the tokens read from or written to its prompt cache, so the
     * prompt is their sum, as upstream re-totals it; Anthropic gives no total.
     */
    private static void anthropicUsage(final JsonNode usage, final ChunkParser.Chunk out) {
        if (!usage.isObject()) {
            return;
        }
        out.hasUsage = true;
        out.partialUsage = true;
        final Integer input = integer(usage.path("input_tokens"));
        if (input != null) {
            out.promptTokens = input + usage.path("cache_creation_input_tokens").asInt(0)
                    + usage.path("cache_read_input_tokens").asInt(0);
        }
        out.completionTokens = integer(usage.path("output_tokens"));
        out.cacheReadTokens = integer(usage.path("cache_read_input_tokens"));
    }

    /**
     * OpenAI Images: a whole answer's {@code data[]} (each a {@code b64_json} or a {@code url}), or a streamed event's
     * own {@code b64_json} (a partial or the final image). An image is an answer without tokens, as an embedding is.
     */
    private static void images(final JsonNode node, final ChunkParser.Chunk out) {
        if (node.path("b64_json").isTextual()) {
            out.hasEmbedding = true;
            return;
        }
        for (final JsonNode item : node.path("data")) {
            out.hasEmbedding |= item.path("b64_json").isTextual() || item.path("url").isTextual();
        }
    }

    /** Hugging Face TGI: {@code generated_text} (also in a one-element list), or a streamed {@code token.text}. */
    private static void huggingFace(final JsonNode node, final ChunkParser.Chunk out) {
        final JsonNode answer = node.isArray() ? node.path(0) : node;
        final JsonNode token = answer.path("token");
        if (token.isObject()) {
            if (!token.path("special").asBoolean(false)) {
                out.content = token.path("text").asText(null);
            }
            return;
        }
        out.content = answer.path("generated_text").asText(null);
    }

    /** NIM {@code rankings}, Cohere {@code results} or TEI's bare list: any non-empty list of scores is an answer. */
    private static void rankings(final JsonNode node, final ChunkParser.Chunk out) {
        final JsonNode list = node.isArray() ? node : node.has("rankings") ? node.get("rankings") : node.path("results");
        out.hasEmbedding = list.isArray() && !list.isEmpty();
        final JsonNode usage = node.path("usage").isObject() ? node.path("usage") : node.path("meta").path("billed_units");
        if (usage.isObject() && (usage.has("prompt_tokens") || usage.has("search_units"))) {
            out.hasUsage = true;
            out.promptTokens = integer(usage.path("prompt_tokens"));
            out.totalTokens = integer(usage.path("total_tokens"));
        }
    }

    /** The text at the template's {@code response_field} path (list indexes as numbers). */
    private static void template(final JsonNode node, final String[] path, final ChunkParser.Chunk out) {
        JsonNode at = node;
        for (final String step : path) {
            at = at.isArray() && step.chars().allMatch(Character::isDigit) ? at.path(Integer.parseInt(step))
                    : at.path(step);
        }
        out.content = at.isValueNode() && !at.isNull() ? at.asText() : null;
        final JsonNode usage = node.path("usage");
        if (usage.isObject()) {
            out.hasUsage = true;
            out.promptTokens = integer(usage.path("prompt_tokens"));
            out.completionTokens = integer(usage.path("completion_tokens"));
            out.totalTokens = integer(usage.path("total_tokens"));
        }
    }

    private static Integer integer(final JsonNode n) {
        return n.canConvertToInt() ? n.asInt() : null;
    }
}
