package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.NetworkConfig;
import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import io.aiperf.engine.record.ResponseData;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.message.BasicHeader;
import org.junit.jupiter.api.Test;

/**
 * An open loop's pool grows ahead of its load: sized from the rate and the measured latency before the phase, and
 * kept with spares while requests hold connections. Counted in connects, against the real mock on loopback.
 */
class OpenLoopPoolTest {
    @Test
    void theExpectedInFlightCountIsTheRateTimesTheLatencyPlusTheCatchUpBound() {
        // 20k req/s at 0.5 ms: 10 in flight, plus 10 ms of arrivals sent at once after a stall.
        assertThat(OpenLoopPool.of(20_000, 0.0005, 100_000)).isEqualTo(new OpenLoopPool(210, 53));
        assertThat(OpenLoopPool.of(100, 0, 100_000)).isEqualTo(new OpenLoopPool(1, OpenLoopPool.MIN_SPARES));
        assertThat(OpenLoopPool.of(1_000, 2.0, 500)).isEqualTo(new OpenLoopPool(500, 125)); // the pool's limit
    }

    @Test
    void beforeThePhaseOnlyTheMissingConnectionsAreOpened() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast());
             InferenceClient client = client(64)) {
            final URI uri = URI.create(mock.url() + "/v1/chat/completions");
            assertThat(client.preconnect(uri, 3, 30)).isTrue();
            assertThat(client.connectsOpened()).isEqualTo(3);
            // No answer measured yet: 100/s x 10 ms = 1 connection, and 4 spares; 3 are open already.
            final OpenLoopPool pool = client.prepareOpenLoop(List.of(uri), 100, 30);
            assertThat(pool).isEqualTo(new OpenLoopPool(1, 4));
            assertThat(client.connectsOpened()).isEqualTo(5);
            assertThat(send(client, uri, 0).get(30, TimeUnit.SECONDS).error()).isNull();
            assertThat(client.connectsOpened()).as("spares enough: one request opens nothing").isEqualTo(5);
        }
    }

    @Test
    void whileRequestsHoldConnectionsTheSparesAreOpenedAheadOfTheNextOnes() throws Exception {
        // Answers take a second: the three requests hold their connections together.
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(1000, 0));
             InferenceClient grows = client(64); InferenceClient fixed = client(64)) {
            final URI uri = URI.create(mock.url() + "/v1/chat/completions");
            grows.prepareOpenLoop(List.of(uri), 100, 30);
            assertThat(fixed.preconnect(uri, 5, 30)).isTrue();
            final List<CompletableFuture<ResponseData>> all = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                all.add(send(grows, uri, i));
                all.add(send(fixed, uri, i));
            }
            for (final CompletableFuture<ResponseData> f : all) {
                assertThat(f.get(30, TimeUnit.SECONDS).error()).isNull();
            }
            // 3 busy and 4 spares idle or connecting: at least 7; without growing ahead, the 5 opened before.
            assertThat(grows.connectsOpened()).isGreaterThanOrEqualTo(7);
            assertThat(fixed.connectsOpened()).isEqualTo(5);
        }
    }

    private static InferenceClient client(final int connections) {
        return new InferenceClient(connections, 30, System::nanoTime, RunLimits.defaults(), NetworkConfig.defaults(),
                true);
    }

    private static CompletableFuture<ResponseData> send(final InferenceClient client, final URI uri, final int i) {
        final CompletableFuture<ResponseData> done = new CompletableFuture<>();
        client.send(new PreparedRequest(uri, new Header[] {new BasicHeader("Content-Type", "application/json")},
                ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2}")
                        .getBytes(StandardCharsets.UTF_8), false), "r" + i, "c" + i, new InFlight(), done::complete);
        return done;
    }
}
