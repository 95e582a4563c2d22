package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.gate.RequestSamples;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream's further search options against the real mock: SLA tiers with a capacity each, the objective's best
 * point, pooled percentiles, each point's trials converging, and the max-concurrency-under-sla recipe on a grid.
 */
class SearchObjectivesEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void tiersObjectivePoolingAndConvergenceInOneSearch() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            final Path dir = tmp.resolve("tiers");
            // strict: a TTFT p95 no server meets; loose: one any meets; every point runs 2 trials (request_count's
            // spread is 0: converged at the minimum of 2)
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "8",
                    "--osl", "2", "--request-count", "10", "--warmup-request-count", "2", "--tokenizer", "builtin",
                    "--search-space", "concurrency:1,4", "--search-sla", "time_to_first_token:p50:lt:1000000",
                    "--search-sla-tier", "strict:time_to_first_token:p95:lt:0.001", "--search-sla-tier",
                    "loose:time_to_first_token:p95:lt:1000000", "--search-metric", "request_latency",
                    "--search-stat", "p50", "--search-direction", "minimize", "--search-percentile-pooling", "pooled",
                    "--search-trials-max", "3", "--convergence-metric", "request_count", "--convergence-mode", "cv",
                    "--search-random-seed", "7", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode result = Runs.json(dir.resolve("search_result.json"));
            assertThat(result.path("search").path("random_seed").asInt()).isEqualTo(7);
            assertThat(result.path("search").path("sla_tiers").size()).isEqualTo(2);
            final JsonNode tiers = result.path("tiers");
            assertThat(tiers.get(0).path("label").asText()).isEqualTo("strict");
            assertThat(tiers.get(0).path("capacity").isNull()).as("0.001 ms is met nowhere").isTrue();
            assertThat(tiers.get(0).path("next_missed").asInt()).isEqualTo(1);
            for (final JsonNode p : result.path("points")) {
                assertThat(p.path("tiers").get(0).path("decision").asText()).isIn("misses", "invalid");
                final JsonNode conv = p.path("convergence");
                assertThat(conv.path("trials_run").asInt()).isEqualTo(p.path("trials").asInt());
                if (p.path("decision").asText().equals("meets")) {
                    assertThat(conv.path("converged").asBoolean()).isTrue();
                    assertThat(p.path("trials").asInt()).as("converged at the minimum, min(3, 3) trials").isEqualTo(3);
                    assertThat(p.path("slas").get(0).path("value").asDouble()).as("pooled p50 of the trials' requests")
                            .isEqualTo(pooledP50(dir, p));
                }
            }
            final String html = java.nio.file.Files.readString(dir.resolve("report.html"));
            assertThat(html.split("class=\"capacity-tier\"", -1).length - 1).as("one line per tier").isEqualTo(2);
            assertThat(html).contains("Tier strict (time_to_first_token p95 lt 0.001").contains("class=\"capacity-best\"");
            if (Runs.clientStarved(dir)) {
                return; // a starved point is invalid: the verdicts below are the machine's
            }
            assertThat(tiers.get(0).path("binding_constraint").asText()).isEqualTo("time_to_first_token:p95:lt:0.001");
            assertThat(result.path("path").toString()).as("the two tiers share the probes of 1 and 4")
                    .isEqualTo("[1,4]");
            assertThat(tiers.get(1).path("capacity").asInt()).isEqualTo(4);
            assertThat(result.path("capacity").asInt()).as("the most lenient tier's").isEqualTo(4);
            final JsonNode best = result.path("best");
            final double top = Math.min(result.path("points").get(0).path("objective").asDouble(),
                    result.path("points").get(1).path("objective").asDouble());
            assertThat(best.path("objective").asDouble()).isEqualTo(top).isPositive();
            assertThat(r.out()).contains("Best request_latency p50 (minimize): ")
                    .contains("Tier strict (time_to_first_token:p95:lt:0.001, time_to_first_token:p50:lt:1000000): "
                            + "capacity none; 1 does not meet the SLOs")
                    .contains("Tier loose").contains("Capacity: concurrency 4");
        }
    }

    /** The p50 (linear between ranks) of the TTFTs of the point's trials whose client kept up, from their records. */
    private static double pooledP50(final Path dir, final JsonNode point) {
        final List<Double> all = new ArrayList<>();
        for (final JsonNode t : point.path("trial_results")) {
            if (t.path("client_limited").asBoolean()) {
                continue;
            }
            final RequestSamples s = RequestSamples.read(dir.resolve(t.path("artifact_dir").asText())
                    .resolve("profile_export.jsonl"), true);
            Arrays.stream(s.values("time_to_first_token")).forEach(all::add);
        }
        final double[] v = all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        final double idx = 0.5 * (v.length - 1);
        final int lo = (int) Math.floor(idx);
        return v[lo] + (v[Math.min(lo + 1, v.length - 1)] - v[lo]) * (idx - lo);
    }

    @Test
    void maxConcurrencyUnderSlaOnAGrid() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            final Path dir = tmp.resolve("recipe");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "8",
                    "--osl", "2", "--request-count", "8", "--tokenizer", "builtin", "--search-recipe",
                    "max-concurrency-under-sla", "--e2e-sla-ms", "1000000", "--error-rate-sla", "0.5",
                    "--search-style", "grid", "--concurrency-max", "3", "--search-max-iterations", "2",
                    "--search-trials-max", "1", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode result = Runs.json(dir.resolve("search_result.json"));
            assertThat(result.path("search").path("recipe").asText()).isEqualTo("max-concurrency-under-sla");
            assertThat(result.path("search").path("planner").asText()).isEqualTo("grid");
            assertThat(result.path("path").toString()).isEqualTo("[1,3]");
            final JsonNode slas = result.path("points").get(0).path("slas");
            assertThat(slas.get(0).path("sla").asText()).isEqualTo("request_latency:p99:lt:1000000");
            assertThat(slas.get(1).path("sla").asText()).as("the fraction in percent, the metric's unit")
                    .isEqualTo("request_error_rate:avg:lt:50");
            assertThat(slas.get(1).path("value").asDouble()).isZero();
            if (!Runs.clientStarved(dir)) {
                assertThat(result.path("capacity").asInt()).isEqualTo(3);
            }
        }
    }

    @Test
    void maxGoodputUnderSloCountsGoodRequestsInEveryCell() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            final Path dir = tmp.resolve("goodput");
            // a TTFT of 0.001 ms: no request is good, so no point attains 90% of them
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "8",
                    "--osl", "2", "--request-count", "8", "--tokenizer", "builtin", "--search-recipe",
                    "max-goodput-under-slo", "--ttft-sla-ms", "0.001", "--e2e-sla-ms", "1000000",
                    "--slo-attainment-fraction", "0.9", "--concurrency-max", "2", "--search-trials-max", "1",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode result = Runs.json(dir.resolve("search_result.json"));
            assertThat(result.path("search").path("objective").path("metric").asText()).isEqualTo("goodput");
            final JsonNode first = result.path("points").get(0);
            assertThat(first.path("slas").get(0).path("sla").asText()).isEqualTo("slo_attainment:avg:ge:0.9");
            assertThat(first.path("slas").get(0).path("value").asDouble()).as("no good request").isZero();
            final JsonNode cell = Runs.json(dir.resolve(first.path("trial_results").get(0).path("artifact_dir").asText())
                    .resolve("profile_export_aiperf.json"));
            assertThat(cell.path("good_request_count").path("avg").asDouble()).isZero();
            assertThat(cell.path("request_count").path("avg").asDouble()).isEqualTo(8);
            assertThat(first.path("decision").asText()).isIn("misses", "invalid");
            assertThat(result.path("capacity").isNull()).isTrue();
            final Runs.Result both = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--search-recipe",
                    "max-goodput-under-slo", "--ttft-sla-ms", "5", "--goodput", "time_to_first_token:9",
                    "--artifact-dir", tmp.resolve("both").toString());
            assertThat(both.exitCode()).isEqualTo(2);
            assertThat(both.err()).contains("--goodput");
        }
    }
}
