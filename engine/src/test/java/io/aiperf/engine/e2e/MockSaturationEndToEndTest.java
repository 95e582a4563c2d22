package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --max-slots}: beyond its slots the mock queues, so TTFT grows with the load as a saturated server's does. */
class MockSaturationEndToEndTest {
    private static final int SLOTS = 2;

    @TempDir
    Path tmp;

    @Test
    void twiceTheSlotsInFlightRaisesTtftAndShowsTheQueueInMetrics() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(10, 2).withMaxSlots(SLOTS))) {
            final double atSlots = ttftP50(mock, SLOTS, "at-slots");
            final double twice = ttftP50(mock, 2 * SLOTS, "twice");
            // Each request is served for 10 + 16 x 2 ms; at twice the slots half of them wait about that long
            // first, so the median TTFT is well above the unqueued one (about 10 ms).
            assertThat(twice).as("TTFT p50 at concurrency %d vs %d", 2 * SLOTS, SLOTS).isGreaterThan(1.5 * atSlots);

            final String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(mock.url() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertThat(metrics).contains("aiperf_mock:max_slots{model_name=\"mock-model\"} " + SLOTS)
                    .contains("vllm:num_requests_waiting{model_name=\"mock-model\"} 0");
        }
    }

    @Test
    void theQueueIsVisibleInMetricsWhileRequestsWait() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(2_000, 0).withMaxSlots(1))) {
            final HttpClient http = HttpClient.newHttpClient();
            final HttpRequest chat = HttpRequest.newBuilder(URI.create(mock.url() + "/v1/chat/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"max_tokens\":1,"
                            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")).build();
            final var first = http.sendAsync(chat, HttpResponse.BodyHandlers.discarding());
            final var second = http.sendAsync(chat, HttpResponse.BodyHandlers.discarding());
            final HttpRequest metrics = HttpRequest.newBuilder(URI.create(mock.url() + "/metrics")).build();
            String text = "";
            // both planned on arrival: wait (bounded) until the mock has seen them, then one runs and one waits
            for (int i = 0; i < 200 && !text.contains("vllm:num_requests_waiting{model_name=\"mock-model\"} 1"); i++) {
                text = http.send(metrics, HttpResponse.BodyHandlers.ofString()).body();
                Thread.onSpinWait();
            }
            assertThat(text).contains("vllm:num_requests_waiting{model_name=\"mock-model\"} 1")
                    .contains("vllm:num_requests_running{model_name=\"mock-model\"} 1")
                    .contains("vllm:kv_cache_usage_perc{model_name=\"mock-model\"} 1.0");
            first.cancel(true);
            second.cancel(true);
        }
    }

    private double ttftP50(final MockServer mock, final int concurrency, final String name) throws Exception {
        final Path dir = tmp.resolve(name);
        final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "20",
                "--osl", "16", "--concurrency", String.valueOf(concurrency), "--request-count",
                String.valueOf(8 * concurrency), "--warmup-request-count", "2", "--tokenizer", "builtin",
                "--artifact-dir", dir.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        return Runs.json(dir.resolve("profile_export_aiperf.json")).path("time_to_first_token").path("p50").asDouble();
    }
}
