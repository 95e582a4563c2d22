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

    /**
     * A server just started answers its first requests slowly: here the mock's first six answers wait 1.5 s. A search
     * with no warmup asked for warms the server before its first point, so it finds what it finds on a warm server.
     */
    @Test
    void aSearchAgainstAServerJustStartedFindsWhatItFindsAgainstAWarmOne() throws Exception {
        final int[] capacity = new int[2];
        for (final boolean cold : new boolean[] {false, true}) {
            final MockServerConfig config = MockServerConfig.fast().withLatency(20, 2).withMaxSlots(4);
            try (MockServer mock = MockServer.start(cold
                    ? config.withFaults("/v1/chat/completions=delay:1500:6") : config)) {
                final Path dir = tmp.resolve(cold ? "cold" : "warm");
                final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "20",
                        "--osl", "8", "--request-count", "24", "--tokenizer", "builtin", "--search-recipe",
                        "max-throughput-ttft-sla", "--ttft-sla-ms", "45", "--concurrency-max", "8",
                        "--artifact-dir", dir.toString());
                assertThat(r.exitCode()).as(r.err()).isZero();
                if (Runs.clientStarved(dir)) {
                    return; // a starved client decides nothing: the machine's verdict, not the search's
                }
                final JsonNode result = Runs.json(dir.resolve("search_result.json"));
                capacity[cold ? 1 : 0] = result.path("capacity").asInt();
                assertThat(result.path("search").path("added_warmup_requests").asInt()).isGreaterThanOrEqualTo(10);
                assertThat(r.err()).contains("no warmup was asked for");
            }
        }
        assertThat(capacity[0]).as("against a warm server").isBetween(3, 5);
        assertThat(capacity[1]).as("against one just started").isEqualTo(capacity[0]);
    }

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
                assertThat(p.path("trial_results").size()).isEqualTo(p.path("trials").asInt()).isBetween(1, 3);
                for (final JsonNode t : p.path("trial_results")) {
                    final Path cell = dir.resolve(t.path("artifact_dir").asText());
                    assertThat(cell.getParent()).isEqualTo(dir.resolve(p.path("artifact_dir").asText()));
                    assertThat(cell.resolve("profile_export_aiperf.json")).as("a cell of its own").isRegularFile();
                    assertThat(Runs.json(cell.resolve("cell_outcome.json")).path("cell").path("parameters")
                            .path("concurrency").asInt()).isEqualTo(p.path("concurrency").asInt());
                }
                final boolean below = p.path("concurrency").asInt() <= result.path("capacity").asInt();
                assertThat(p.path("decision").asText()).as("point %s", p).isIn(below ? java.util.List.of("meets")
                        : java.util.List.of("misses", "inconclusive", "invalid"));
                final JsonNode slo = p.path("slas").get(0);
                if (slo.path("decided_by").asText().equals("requests") && p.path("decision").asText().equals("meets")) {
                    assertThat(slo.path("high").asDouble()).as("met at 95%%: the bound is below 45").isLessThan(45);
                } else if (slo.path("decided_by").asText().equals("value")) {
                    assertThat(Math.abs(slo.path("margin").asDouble())).as("far from the SLO").isGreaterThan(0.10);
                }
            }
            assertThat(result.path("capacity_bounds").path("low").asInt()).isEqualTo(result.path("capacity").asInt());
            assertThat(r.out()).contains("Capacity search: concurrency 1..16")
                    .contains("Capacity: concurrency " + result.path("capacity").asInt());
            final String html = Files.readString(dir.resolve("report.html"));
            assertThat(html).contains("<h2>Capacity search</h2>")
                    .contains("<b id=\"capacity\">" + result.path("capacity_bounds").path("low").asInt())
                    .contains("class=\"capacity-slo\"").contains("class=\"capacity-line\"");
            assertThat(html.split("class=\"capacity-point\"", -1).length - 1).as("one dot per probed point")
                    .isEqualTo(result.path("points").size());
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
        if (!Runs.clientStarved(dir)) { // a starved first point is invalid and ends the search: the machine's verdict
            assertThat(points.size()).isEqualTo(2);
            final double atTwo = points.get(0).path("slas").get(0).path("value").asDouble();
            final double atFour = points.get(1).path("slas").get(0).path("value").asDouble();
            assertThat(atFour).as("TTFT p50 at 6 users on 2 slots vs 2 users").isGreaterThan(1.5 * atTwo);
        }
        final Runs.Result alone = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--mock-max-slots",
                "2", "--artifact-dir", tmp.resolve("alone").toString());
        assertThat(alone.exitCode()).isEqualTo(2);
        assertThat(alone.err()).contains("--mock-max-slots");
    }

    @Test
    void aPointWhoseClientIsShortOfCpuNeverMeetsTheSlos() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 2))) {
            final Path dir = tmp.resolve("starved");
            // an SLO any run meets by its numbers; a starved client's timer wake-ups are late by more than 1 ms
            final Runs.Result r = CpuHogs.whileStarved(2, () -> Runs.aiperf("profile", "-m", "m", "-u", mock.url(),
                    "--streaming", "--isl", "8", "--osl", "8", "--request-count", "12", "--warmup-request-count", "2",
                    "--search-space", "concurrency:1,2", "--search-sla", "time_to_first_token:p50:lt:1000000",
                    "--search-trials-max", "1", "--search-max-client-lateness", "1", "--artifact-dir", dir.toString()));
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode result = Runs.json(dir.resolve("search_result.json"));
            assertThat(result.path("capacity").isNull()).as(result.toString()).isTrue();
            final JsonNode first = result.path("points").get(0);
            assertThat(first.path("decision").asText()).isEqualTo("invalid");
            assertThat(first.path("reason").asText()).contains("client-limited");
            assertThat(first.path("slas").get(0).path("met").asBoolean()).as("its numbers alone would meet").isTrue();
            for (final JsonNode t : first.path("trial_results")) {
                assertThat(t.path("client_limited").asBoolean()).isTrue();
                assertThat(t.path("client_lateness_p99_ms").asDouble()).isGreaterThan(1.0);
            }
            assertThat(r.out()).contains("Capacity: none");
        }
    }

    @Test
    void theRequestRateIsAKnobToo() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            final Path dir = tmp.resolve("rate");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "8",
                    "--osl", "2", "--request-count", "12", "--warmup-request-count", "2", "--tokenizer", "builtin",
                    "--search-space", "request_rate:10,40", "--search-sla", "time_to_first_token:p50:lt:1000000",
                    "--search-max-iterations", "2", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode result = Runs.json(dir.resolve("search_result.json"));
            assertThat(result.path("search").path("knob").asText()).isEqualTo("request_rate");
            if (Runs.clientStarved(dir) && result.path("path").toString().equals("[10]")) {
                // a starved first point is invalid and ends the search: the machine's verdict (seen at a load of 11)
                assertThat(result.path("points").get(0).path("decision").asText()).isEqualTo("invalid");
                return;
            }
            assertThat(result.path("path").toString()).isEqualTo("[10,40]");
            // a 1000 s TTFT is met at any rate the client keeps up with (a client that cannot is invalid)
            final JsonNode top = result.path("points").get(1);
            assertThat(result.path("capacity").asInt()).isEqualTo(top.path("decision").asText().equals("meets") ? 40 : 10);
            final Path cell = dir.resolve(top.path("trial_results").get(0).path("artifact_dir").asText());
            assertThat(cell.toString()).contains("request_rate_0040");
            final JsonNode phases = Runs.json(cell.resolve("profile_export_aiperf.json")).path("input_config")
                    .path("phases");
            assertThat(phases.get(phases.size() - 1).path("rate").asDouble()).as("the point ran at its rate: %s", phases)
                    .isEqualTo(40.0);
        }
    }

    @Test
    void theGridPlannerProbesEveryGridValueInOrder() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            final Path dir = tmp.resolve("grid");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "8",
                    "--osl", "2", "--request-count", "8", "--tokenizer", "builtin", "--search-planner", "grid",
                    "--search-space", "concurrency:1,5", "--search-max-iterations", "3", "--search-sla",
                    "time_to_first_token:p50:lt:1000000", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode result = Runs.json(dir.resolve("search_result.json"));
            assertThat(result.path("search").path("planner").asText()).isEqualTo("grid");
            assertThat(result.path("path").toString()).isEqualTo("[1,3,5]");
            assertThat(result.path("capacity").asInt()).isEqualTo(5);
            final Runs.Result bayes = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--search-planner",
                    "bayesian", "--search-sla", "time_to_first_token:p50:lt:5", "--artifact-dir",
                    tmp.resolve("bayes").toString());
            assertThat(bayes.exitCode()).isEqualTo(2);
            assertThat(bayes.err()).contains("--search-planner").contains("bisection and grid");
        }
    }

    @Test
    void theSearchCanBeGivenInTheConfigFileAndTheCommandLineWins() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            final Path yaml = tmp.resolve("search.yaml");
            Files.writeString(yaml, """
                    benchmark:
                      model: m
                      endpoint: {url: %s, streaming: true}
                    search:
                      space: concurrency:1,3
                      slas: [time_to_first_token:p50:lt:1000000]
                      max_iterations: 2
                      trials_max: 1
                    """.formatted(mock.url()));
            final Path dir = tmp.resolve("yaml");
            final Runs.Result r = Runs.aiperf("profile", "--config", yaml.toString(), "--isl", "8", "--osl", "2",
                    "--request-count", "8", "--tokenizer", "builtin", "--search-max-iterations", "3",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode search = Runs.json(dir.resolve("search_result.json")).path("search");
            assertThat(search.path("max").asInt()).as("from the file").isEqualTo(3);
            assertThat(search.path("max_trials").asInt()).as("from the file").isEqualTo(1);
            assertThat(search.path("max_probes").asInt()).as("the command line wins").isEqualTo(3);
            Files.writeString(yaml, Files.readString(yaml).replace("trials_max", "trial_max"));
            final Runs.Result bad = Runs.aiperf("profile", "--config", yaml.toString(), "--artifact-dir",
                    tmp.resolve("bad-yaml").toString());
            assertThat(bad.exitCode()).isEqualTo(2);
            assertThat(bad.err()).contains("search.trial_max").contains("trials_max");
        }
    }

    @Test
    void badSearchOptionsExitTwoBeforeAnyTraffic() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final String[][] cases = {
                {"--search-recipe", "pareto-sweep", "--ttft-sla-ms", "5"},
                {"--search-recipe", "max-throughput-ttft-sla"},
                {"--search-sla", "time_to_first_token:p95:under:5"},
                {"--search-space", "batch_size:1,4", "--search-sla", "time_to_first_token:p95:lt:5"},
                {"--search-space", "request_rate:1,4", "--search-sla", "time_to_first_token:p95:lt:5",
                    "--request-rate", "3"},
                {"--search-space", "concurrency:4,2", "--search-sla", "time_to_first_token:p95:lt:5"},
                {"--search-space", "concurrency:1,4"},
                {"--search-sla", "time_to_first_token:p95:lt:5", "--concurrency", "4"},
                {"--search-sla", "time_to_first_token:p95:lt:5", "--search-max-iterations", "1"},
                {"--search-sla", "time_to_first_token:p95:lt:5", "--search-trials-max", "11"},
                {"--search-sla", "time_to_first_token:p95:lt:5", "--search-max-client-lateness", "0"},
                {"--search-sla", "time_to_first_token:p95:lt:5", "--search-boundary-band", "-1"},
            };
            final String[] expected = {"--search-recipe", "--ttft-sla-ms", "--search-sla", "--search-space",
                "--request-rate",
                "--search-space", "--search-sla", "--concurrency", "--search-max-iterations",
                "--search-trials-max", "--search-max-client-lateness", "--search-boundary-band"};
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
