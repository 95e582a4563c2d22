package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.config.EndpointConfig;
import io.aiperf.engine.dataset.Conversation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Anthropic's Messages API: the request upstream sends, its headers, and the answers read, whole or streamed. */
class AnthropicMessagesTest {
    private static EndpointConfig endpoint(final String more) {
        return ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  endpoint: {url: "http://127.0.0.1:9", type: messages, api_key: sk-ant-1%s}
                """.formatted(more), new CliOverlay()).endpoint();
    }

    @Test
    void theBodyHasTheSystemPromptAtTheTopAndMaxTokensAlways() {
        final ObjectNode body = new RequestFactory(endpoint(""), "t").body("m", "be brief", List.of("hi", "hello",
                "again"), List.of(List.of(), List.of(new Conversation.Media(Conversation.Media.Kind.IMAGE,
                "data:image/png;base64,iVBORw0K"))), null);
        assertThat(body.toString()).isEqualTo("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},"
                + "{\"role\":\"assistant\",\"content\":\"hello\"},{\"role\":\"user\",\"content\":[{\"type\":\"text\","
                + "\"text\":\"again\"},{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":"
                + "\"image/png\",\"data\":\"iVBORw0K\"}}]}],\"max_tokens\":16384,\"stream\":false,\"system\":\"be brief\"}");
        assertThat(new RequestFactory(endpoint(", streaming: true"), "t").body("m", "x", 7).path("stream")
                .asBoolean()).isTrue();
    }

    @Test
    void theKeyGoesAsXApiKeyWithAnAnthropicVersionUnlessOneIsGiven() {
        final Map<String, String> h = headers(new RequestFactory(endpoint(""), "t").commonHeaders());
        assertThat(h).containsEntry("x-api-key", "sk-ant-1").containsEntry("anthropic-version", "2023-06-01")
                .containsEntry("Authorization", "Bearer sk-ant-1"); // upstream's header, what vLLM checks
        final Map<String, String> own = headers(new RequestFactory(endpoint(", headers: {anthropic-version: "
                + "2024-01-01}"), "t").commonHeaders());
        assertThat(own).containsEntry("anthropic-version", "2024-01-01").hasSize(h.size());
    }

    private static Map<String, String> headers(final RequestHeaders headers) {
        return headers.asMap();
    }

    private static ChunkParser.Chunk parse(final String json) throws Exception {
        final ChunkParser.Chunk out = new ChunkParser.Chunk();
        final byte[] b = json.getBytes(StandardCharsets.UTF_8);
        ResponseParser.of(endpoint("")).parse(b, 0, b.length, out);
        return out;
    }

    @Test
    void streamedEventsGiveTextThinkingToolInputAndSplitUsage() throws Exception {
        final ChunkParser.Chunk start = parse("{\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":"
                + "10,\"cache_read_input_tokens\":30,\"cache_creation_input_tokens\":2,\"output_tokens\":1}}}");
        assertThat(start.isContentResponse()).isFalse();
        assertThat(start.promptTokens).isEqualTo(42); // the cached tokens are part of the prompt
        assertThat(start.cacheReadTokens).isEqualTo(30);
        assertThat(start.partialUsage).isTrue();
        assertThat(parse("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
                + "\"text\":\"Hi\"}}").content).isEqualTo("Hi");
        assertThat(parse("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\","
                + "\"thinking\":\"hmm\"}}").reasoning).isEqualTo("hmm");
        assertThat(parse("{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\","
                + "\"partial_json\":\"{\\\"a\\\":\"}}").content).isEqualTo("{\"a\":");
        assertThat(parse("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\","
                + "\"signature\":\"abc\"}}").isContentResponse()).isFalse();
        final ChunkParser.Chunk delta = parse("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
                + "\"usage\":{\"output_tokens\":15}}");
        assertThat(delta.completionTokens).isEqualTo(15);
        assertThat(delta.promptTokens).isNull(); // kept from message_start by the collector
        assertThat(delta.cacheReadTokens).isNull();
        assertThat(parse("{\"type\":\"ping\"}").isContentResponse()).isFalse();
        assertThat(parse("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}")
                .errorType).isEqualTo("overloaded_error");
    }

    @Test
    void aWholeAnswerGivesItsBlocksAndUsage() throws Exception {
        final ChunkParser.Chunk c = parse("{\"type\":\"message\",\"content\":[{\"type\":\"thinking\",\"thinking\":"
                + "\"let me see\",\"signature\":\"s\"},{\"type\":\"text\",\"text\":\"Paris\"},{\"type\":\"tool_use\","
                + "\"id\":\"t1\",\"name\":\"lookup\",\"input\":{\"q\":\"x\"}}],\"usage\":{\"input_tokens\":9,"
                + "\"output_tokens\":4}}");
        assertThat(c.content).isEqualTo("Parislookup{\"q\":\"x\"}");
        assertThat(c.reasoning).isEqualTo("let me see");
        assertThat(c.promptTokens).isEqualTo(9);
        assertThat(c.completionTokens).isEqualTo(4);
        assertThat(c.totalTokens).isNull();
        assertThat(c.cacheReadTokens).isNull(); // no cache_read_input_tokens: no cache metric, as upstream
        assertThat(c.partialUsage).isFalse();
    }
}
