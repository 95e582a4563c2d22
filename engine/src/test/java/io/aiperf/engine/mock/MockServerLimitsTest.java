package io.aiperf.engine.mock;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The mock survives requests that ask for absurd replies, and keeps answering everyone else. */
class MockServerLimitsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aTwoBillionTokenRequestIsCappedAndTheLoopKeepsAnswering() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(0, 0))) {
            final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
            for (final String body : new String[] {
                    "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2000000000}",
                    "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":1e300}",
                    "{\"model\":\"m\",\"prompt\":\"hi\",\"max_tokens\":9223372036854775807}"}) {
                final String path = body.contains("messages") ? "/v1/chat/completions" : "/v1/completions";
                final HttpResponse<String> big = http.send(HttpRequest.newBuilder(URI.create(mock.url() + path))
                        .timeout(Duration.ofSeconds(120)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(big.statusCode()).isEqualTo(200);
                final JsonNode usage = JSON.readTree(big.body()).path("usage");
                assertThat(usage.path("completion_tokens").asInt()).isEqualTo(MockServer.MAX_REPLY_TOKENS);
            }
            final HttpResponse<String> small = http.send(HttpRequest.newBuilder(URI.create(mock.url()
                            + "/v1/chat/completions")).timeout(Duration.ofSeconds(120))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":3}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(JSON.readTree(small.body()).path("usage").path("completion_tokens").asInt()).isEqualTo(3);
        }
    }
}
