package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request the server received on a connection of its own and then lost with it is an error, one for one. A
 * request that met the end of a kept-alive connection before any byte of its answer goes again, once, on a new
 * connection (counted): the race with a server that ends its connections after its answers loses nothing.
 */
class DroppedConnectionsEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void everyConnectionTheServerDestroysAfterReadingTheRequestOnAFreshConnectionIsOneError() throws Exception {
        for (final boolean streaming : new boolean[] {false, true}) {
            try (MockServer mock = MockServer.start(MockServerConfig.fast().withFaults("/v1/chat/completions=drop:20"))) {
                final Path dir = tmp.resolve("drop-" + streaming);
                final Runs.Result r = Runs.aiperf(streaming
                        ? new String[] {"profile", "-m", "m", "-u", mock.url(), "--streaming", "--concurrency", "4",
                                "--request-count", "150", "--isl", "16", "--osl", "4", "--artifact-dir", dir.toString(),
                                "--connection-reuse-strategy", "never"}
                        : new String[] {"profile", "-m", "m", "-u", mock.url(), "--concurrency", "4",
                                "--request-count", "150", "--isl", "16", "--osl", "4", "--artifact-dir", dir.toString(),
                                "--connection-reuse-strategy", "never"});
                final long dropped = mock.controlState().droppedConnections();
                final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
                assertThat(dropped).as("the mock dropped some connections").isPositive();
                assertThat(s.path("error_request_count").path("avg").asLong()).as(r.err()).isEqualTo(dropped);
                assertThat(s.path("request_count").path("avg").asLong()).isEqualTo(150 - dropped);
                assertThat(mock.controlState().calls("/v1/chat/completions")).isEqualTo(150);
                assertThat(s.path("client_health").path("transport").path("retries").asLong()).isZero();
                // Each request has a connection of its own, stamped on the request that waited for it (the first
                // wave's may have been opened before the requests came).
                final long connects = s.path("client_health").path("transport").path("connects").asLong();
                assertThat(connects).isGreaterThanOrEqualTo(150 - 4);
                assertThat(Runs.jsonl(dir.resolve("profile_export.jsonl"))).filteredOn(l -> l.path("client")
                        .has("connect_ns")).hasSize((int) connects);
            }
        }
    }

    /**
     * Pooled, the drops that hit a kept-alive connection are indistinguishable from a close race and go again once;
     * each is still counted, as an error or as a resend, and the server sees no request more than twice.
     */
    @Test
    void pooledEveryDropIsAnErrorOrAResend() throws Exception {
        // 5%: three drops before any answer on a kept-alive connection, which is how a server that closes after
        // every answer looks, stay far less likely than a flaky test should be
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withFaults("/v1/chat/completions=drop:5"))) {
            final Path dir = tmp.resolve("drop-pooled");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--concurrency",
                    "4", "--request-count", "300", "--isl", "16", "--osl", "4", "--artifact-dir", dir.toString());
            final long dropped = mock.controlState().droppedConnections();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            final long errors = s.path("error_request_count").path("avg").asLong(0);
            final long retries = s.path("client_health").path("transport").path("retries").asLong();
            assertThat(dropped).isPositive();
            assertThat(errors + retries).as(r.err()).isEqualTo(dropped);
            assertThat(mock.controlState().calls("/v1/chat/completions")).isEqualTo(300 + retries);
            if (dropped > 4) { // more drops than the first wave's fresh connections: some hit kept-alive ones
                assertThat(retries).as("drops on kept-alive connections are resent").isPositive();
            }
            // It answers on kept-alive connections most of the time: a server that drops some requests is not one
            // that closes after every answer, and stays pooled.
            assertThat(s.path("client_health").path("transport").path("server_closes_after_response").asBoolean())
                    .isFalse();
            assertThat(r.err()).doesNotContain("closes kept-alive connections right after its answers");
        }
    }

    /**
     * Servers that end every kept-alive connection right after their answer, without saying so: closed at once,
     * half-closed with later requests taken and never answered (llama.cpp's llama-server), or closed a few
     * milliseconds later with the next request unread. A request written before the end arrives is resent on a new
     * connection (counted); the end is seen on the busy connection, said once at that time, and from then on each
     * request gets a connection of its own. No request is lost, and the server answers each one once.
     */
    @Test
    void aServerThatEndsConnectionsAfterEachResponseLosesNoRequestAtAnyConcurrency() throws Exception {
        for (final String fault : new String[] {"close-after", "half-close", "close-later:3"}) {
            for (final int concurrency : new int[] {1, 4, 16}) {
                try (MockServer mock = MockServer.start(MockServerConfig.fast()
                        .withFaults("/v1/chat/completions=" + fault))) {
                    final Path dir = tmp.resolve(fault.replace(':', '-') + "-" + concurrency);
                    final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming",
                            "--concurrency", String.valueOf(concurrency), "--request-count", "200", "--osl", "4",
                            "--artifact-dir", dir.toString());
                    assertThat(r.exitCode()).as(r.err()).isZero();
                    final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
                    assertThat(s.path("error_request_count").path("avg").asLong(0)).as("%s at concurrency %d: %s",
                            fault, concurrency, s.path("error_summary")).isZero();
                    assertThat(s.path("request_count").path("avg").asLong()).isEqualTo(200);
                    assertThat(mock.controlState().calls("/v1/chat/completions")).isEqualTo(200);
                    final JsonNode t = s.path("client_health").path("transport");
                    assertThat(t.path("server_closes_after_response").asBoolean()).as(fault).isTrue();
                    // the requests in flight when the server was marked, after the ends that marked it
                    assertThat(t.path("retries").asLong()).isLessThanOrEqualTo(concurrency + 3);
                    assertThat(r.err()).containsOnlyOnce("closes kept-alive connections right after its answers");
                }
            }
        }
    }
}
