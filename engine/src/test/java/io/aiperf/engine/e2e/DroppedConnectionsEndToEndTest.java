package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request the server received and then lost with its connection is an error, one for one: retries may only
 * resend what never reached the server, or a failing server would look healthy.
 */
class DroppedConnectionsEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void everyConnectionTheServerDestroysAfterReadingTheRequestIsOneError() throws Exception {
        for (final boolean streaming : new boolean[] {false, true}) {
            try (MockServer mock = MockServer.start(MockServerConfig.fast().withFaults("/v1/chat/completions=drop:20"))) {
                final Path dir = tmp.resolve("drop-" + streaming);
                final Runs.Result r = Runs.aiperf(streaming
                        ? new String[] {"profile", "-m", "m", "-u", mock.url(), "--streaming", "--concurrency", "4",
                                "--request-count", "150", "--isl", "16", "--osl", "4", "--artifact-dir", dir.toString()}
                        : new String[] {"profile", "-m", "m", "-u", mock.url(), "--concurrency", "4",
                                "--request-count", "150", "--isl", "16", "--osl", "4", "--artifact-dir", dir.toString()});
                final long dropped = mock.controlState().droppedConnections();
                final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
                assertThat(dropped).as("the mock dropped some connections").isPositive();
                assertThat(s.path("error_request_count").path("avg").asLong()).as(r.err()).isEqualTo(dropped);
                assertThat(s.path("request_count").path("avg").asLong()).isEqualTo(150 - dropped);
                assertThat(mock.controlState().calls("/v1/chat/completions")).isEqualTo(150);
                assertThat(s.path("client_health").path("transport").path("retries").asLong()).isZero();
                // Every dropped connection is replaced by a new one when requests remain (the last few drops of the
                // run need none), and each new one is stamped on the request that opened it.
                final long connects = s.path("client_health").path("transport").path("connects").asLong();
                assertThat(connects).isGreaterThanOrEqualTo(dropped - 4);
                assertThat(Runs.jsonl(dir.resolve("profile_export.jsonl"))).filteredOn(l -> l.path("client")
                        .has("connect_ns")).hasSize((int) connects);
            }
        }
    }

    /**
     * A server that closes every kept-alive connection right after its response, without saying so. A request
     * written in the instant before the close arrives meets a closed socket the server never read it from: it is
     * resent on a new connection (counted), and once the client has seen the server do this it stops reusing
     * connections to it. No request is lost, and the server sees each one once.
     */
    @Test
    void aServerThatClosesAfterEachResponseLosesNoRequestAtAnyConcurrency() throws Exception {
        for (final int concurrency : new int[] {1, 4, 16}) {
            try (MockServer mock = MockServer.start(MockServerConfig.fast()
                    .withFaults("/v1/chat/completions=close-after"))) {
                final Path dir = tmp.resolve("close-after-" + concurrency);
                final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming",
                        "--concurrency", String.valueOf(concurrency), "--request-count", "200", "--osl", "4",
                        "--artifact-dir", dir.toString());
                assertThat(r.exitCode()).as(r.err()).isZero();
                final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
                assertThat(s.path("error_request_count").path("avg").asLong(0)).as("concurrency %d: %s", concurrency,
                        s.path("error_summary")).isZero();
                assertThat(s.path("request_count").path("avg").asLong()).isEqualTo(200);
                assertThat(mock.controlState().calls("/v1/chat/completions")).isEqualTo(200);
                final JsonNode t = s.path("client_health").path("transport");
                assertThat(t.path("server_closes_after_response").asBoolean()).isTrue();
                assertThat(t.path("retries").asLong()).isLessThanOrEqualTo(concurrency);
                assertThat(r.err()).containsOnlyOnce("closes kept-alive connections right after its answers");
            }
        }
    }
}
