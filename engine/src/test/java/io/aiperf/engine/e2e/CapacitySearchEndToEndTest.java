package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capacity search against a mock with 8 slots: each request is served for 20 + 16 x 2 ms, so up to concurrency
 * 8 TTFT p95 is about 20 ms and from 9 on a request waits a whole service time (about 70 ms); the SLO of 45 ms
 * is met exactly up to 8.
 */
class CapacitySearchEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void findsTheMocksEightSlotsWithinEightPointsAndWritesEveryPoint() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(20, 2).withMaxSlots(8))) {
            final Path dir = tmp.resolve("search");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "20",
                    "--osl", "16", "--request-count", "40", "--warmup-request-count", "4", "--tokenizer", "builtin",
                    "--search-recipe", "max-throughput-ttft-sla", "--ttft-sla-ms", "45", "--concurrency-max", "16",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode result = Runs.json(dir.resolve("search_result.json"));
            assertThat(result.path("capacity").asInt()).isBetween(7, 9);
            assertThat(result.path("points").size()).isLessThanOrEqualTo(8);
            assertThat(result.path("path").size()).isEqualTo(result.path("points").size());
            assertThat(result.path("at_capacity").path("slas").get(0).path("margin").asDouble()).isPositive();
            for (final JsonNode p : result.path("points")) {
                final Path cell = dir.resolve(p.path("artifact_dir").asText());
                assertThat(cell.resolve("profile_export_aiperf.json")).as("a cell of its own").isRegularFile();
                assertThat(Runs.json(cell.resolve("cell_outcome.json")).path("cell").path("parameters")
                        .path("concurrency").asInt()).isEqualTo(p.path("concurrency").asInt());
                final boolean below = p.path("concurrency").asInt() <= result.path("capacity").asInt();
                assertThat(p.path("decision").asText()).as("point %s", p).isEqualTo(below ? "meets" : "misses");
            }
            assertThat(r.out()).contains("Capacity search: concurrency 1..16")
                    .contains("Capacity: concurrency " + result.path("capacity").asInt());
            try (var tmpFiles = Files.list(dir)) {
                assertThat(tmpFiles.filter(f -> f.getFileName().toString().endsWith(".tmp"))).isEmpty();
            }
        }
    }

    @Test
    void theInProcessMockQueuesBeyondItsSlotsToo() throws Exception {
        final Path dir = tmp.resolve("in-process");
        // --mock serves for 20 + 8 x 5 ms: on 2 slots, two thirds of 6 users wait one or two service times, 2 users none
        final Runs.Result r = Runs.aiperf("profile", "--mock", "--mock-max-slots", "2", "--streaming", "--isl", "20",
                "--osl", "8", "--request-count", "24", "--warmup-request-count", "2", "--search-space",
                "concurrency:2,6", "--search-sla", "time_to_first_token:p50:lt:1000000", "--artifact-dir",
                dir.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        final JsonNode points = Runs.json(dir.resolve("search_result.json")).path("points");
        assertThat(points.size()).isEqualTo(2);
        final double atTwo = points.get(0).path("slas").get(0).path("value").asDouble();
        final double atFour = points.get(1).path("slas").get(0).path("value").asDouble();
        assertThat(atFour).as("TTFT p50 at 6 users on 2 slots vs 2 users").isGreaterThan(1.5 * atTwo);
        final Runs.Result alone = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--mock-max-slots",
                "2", "--artifact-dir", tmp.resolve("alone").toString());
        assertThat(alone.exitCode()).isEqualTo(2);
        assertThat(alone.err()).contains("--mock-max-slots");
    }

    @Test
    void badSearchOptionsExitTwoBeforeAnyTraffic() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final String[][] cases = {
                {"--search-recipe", "max-goodput-under-slo", "--ttft-sla-ms", "5"},
                {"--search-recipe", "max-throughput-ttft-sla"},
                {"--search-sla", "time_to_first_token:p95:under:5"},
                {"--search-space", "rate:1,4", "--search-sla", "time_to_first_token:p95:lt:5"},
                {"--search-space", "concurrency:4,2", "--search-sla", "time_to_first_token:p95:lt:5"},
                {"--search-space", "concurrency:1,4"},
                {"--search-sla", "time_to_first_token:p95:lt:5", "--concurrency", "4"},
                {"--search-sla", "time_to_first_token:p95:lt:5", "--search-max-iterations", "1"},
            };
            final String[] expected = {"--search-recipe", "--ttft-sla-ms", "--search-sla", "--search-space",
                "--search-space", "--search-sla", "--concurrency", "--search-max-iterations"};
            for (int i = 0; i < cases.length; i++) {
                final java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("profile", "-m", "m",
                        "-u", mock.url(), "--request-count", "2", "--artifact-dir", tmp.resolve("bad" + i).toString()));
                args.addAll(java.util.List.of(cases[i]));
                final Runs.Result r = Runs.aiperf(args.toArray(new String[0]));
                assertThat(r.exitCode()).as(String.join(" ", cases[i]) + ": " + r.err()).isEqualTo(2);
                assertThat(r.err()).contains(expected[i]);
            }
            assertThat(mock.controlState().inferenceRequests()).isZero();
        }
    }
}
