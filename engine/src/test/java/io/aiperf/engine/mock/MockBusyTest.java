package io.aiperf.engine.mock;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The in-process mock says how busy its loops were, and a saturated one is named as the run's limit. */
class MockBusyTest {
    @Test
    void theLoopsBusyShareIsMeasuredOverTheirWallTime() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(0, 0))) {
            final long[] before = mock.busy();
            final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
            for (int i = 0; i < 20; i++) {
                final HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(mock.url()
                                + "/v1/chat/completions")).timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                                        + "\"max_tokens\":50}")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(200);
            }
            final double share = mock.busyShare(before);
            if (share >= 0) { // -1 where the JVM cannot read thread CPU time
                assertThat(share).isGreaterThan(0).isLessThanOrEqualTo(1.05);
            }
        }
    }

    @Test
    void aSaturatedMockIsNamedAndOneThatKeptUpIsNot() {
        assertThat(MockServer.saturationWarning(0.93)).contains("93%").contains("aiperf mock-server");
        assertThat(MockServer.saturationWarning(0.5)).isNull();
        assertThat(MockServer.saturationWarning(-1)).isNull();
    }
}
