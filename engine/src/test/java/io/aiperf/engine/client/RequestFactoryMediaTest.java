package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.dataset.Conversation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Multimodal turns in the request shapes of chat and the Responses API (AIPerf's endpoint docs). */
class RequestFactoryMediaTest {
    private static final Conversation.Media IMAGE = new Conversation.Media(Conversation.Media.Kind.IMAGE,
            "https://example.invalid/a.png");
    private static final Conversation.Media AUDIO = new Conversation.Media(Conversation.Media.Kind.AUDIO, "wav,UklGRg==");

    private static RequestFactory factory(final String type) {
        return new RequestFactory(ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  endpoint: {url: "http://127.0.0.1:9", type: %s}
                """.formatted(type), new CliOverlay()).endpoint(), "test");
    }

    @Test
    void chatSendsPartsOnlyForTheTurnsThatHaveMedia() {
        final ObjectNode body = factory("chat").body("m", "sys", List.of("look", "a cat", "and this?"),
                List.of(List.of(IMAGE), List.of(AUDIO)), 16);
        assertThat(body.path("messages").get(0).path("content").asText()).isEqualTo("sys");
        assertThat(body.path("messages").get(1).path("content").toString()).isEqualTo(
                "[{\"type\":\"text\",\"text\":\"look\"},{\"type\":\"image_url\",\"image_url\":{\"url\":"
                        + "\"https://example.invalid/a.png\"}}]");
        assertThat(body.path("messages").get(2).path("content").asText()).isEqualTo("a cat");
        assertThat(body.path("messages").get(3).path("content").get(1).toString())
                .isEqualTo("{\"type\":\"input_audio\",\"input_audio\":{\"data\":\"UklGRg==\",\"format\":\"wav\"}}");
        // Text only stays a bare string, as before.
        assertThat(factory("chat").body("m", null, List.of("hi"), List.of(), 4).path("messages").get(0)
                .path("content").isTextual()).isTrue();
    }

    @Test
    void responsesUsesInputTextAndInputImage() {
        final ObjectNode body = factory("responses").body("m", null, List.of("describe"), List.of(List.of(IMAGE)), 8);
        assertThat(body.path("input").get(0).path("content").toString()).isEqualTo(
                "[{\"type\":\"input_text\",\"text\":\"describe\"},{\"type\":\"input_image\",\"image_url\":"
                        + "\"https://example.invalid/a.png\"}]");
        assertThat(factory("responses").body("m", null, List.of("plain"), List.of(), 8).path("input").asText())
                .isEqualTo("plain");
    }
}
