package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A concurrency far above the work to do opens no more connections than the requests need. */
class ConnectionBoundsEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void aHugeConcurrencyWithTwoRequestsOpensAHandfulOfConnections() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--concurrency", "2000000000",
                    "--request-count", "2", "--osl", "4", "--artifact-dir", tmp.resolve("run").toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(tmp.resolve("run").resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asLong()).isEqualTo(2);
            // the two requests' connections, and the probes that ask the server who it is and scrape its metrics
            assertThat(mock.acceptedConnections()).isLessThanOrEqualTo(10);
        }
    }
}
