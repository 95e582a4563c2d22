package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every goodput tag the engine accepts is computed: under loose SLOs every request is good. */
class GoodputEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void everyAcceptedGoodputTagIsComputedAndLooseSlosPassEveryRequest() throws Exception {
        final Map<String, Boolean> tags = MetricRegistry.sloDirections();
        final String slos = tags.entrySet().stream()
                .map(e -> e.getKey() + ":" + (e.getValue() ? "0.001" : "1000000"))
                .collect(Collectors.joining(" "));
        // Real token gaps (5 ms): if a whole stream arrived in one read, ITL would be 0 and tokens/sec/user would
        // have no value, which fails any SLO on it (as in AIPerf, a missing value fails).
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(2, 5))) {
            final Path dir = tmp.resolve("goodput");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "20",
                    "--osl", "8", "--request-count", "6", "--warmup-request-count", "2", "--tokenizer", "builtin",
                    "--goodput", slos,
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("good_request_count").path("avg").asInt()).isEqualTo(6);
            assertThat(s.path("good_request_fraction").path("avg").asDouble()).isEqualTo(1.0);
            // as upstream 0.13, each record says whether it met every SLO
            assertThat(Runs.jsonl(dir.resolve("profile_export.jsonl")))
                    .allSatisfy(rec -> assertThat(rec.at("/metrics/good_request_count/value").asInt()).isEqualTo(1));
            for (final String tag : tags.keySet()) {
                assertThat(s.path(tag).path("avg").isNumber()).as(tag + " in the summary").isTrue();
                assertThat(Runs.jsonl(dir.resolve("profile_export.jsonl")).get(0).path("metrics").has(tag))
                        .as(tag + " in the records").isTrue();
            }
            // Each one alone, at a threshold no request can meet, makes goodput zero: the tag is really checked. Below
            // zero for the latencies: on a busy machine two tokens can arrive in one read, a gap of exactly 0.
            for (final Map.Entry<String, Boolean> e : tags.entrySet()) {
                final Path one = tmp.resolve("strict-" + e.getKey());
                final Runs.Result strict = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl",
                        "20", "--osl", "8", "--request-count", "2", "--tokenizer", "builtin", "--goodput",
                        e.getKey() + ":" + (e.getValue() ? "1e12" : "-1"), "--artifact-dir", one.toString());
                assertThat(strict.exitCode()).as(strict.err()).isZero();
                final JsonNode strictSummary = Runs.json(one.resolve("profile_export_aiperf.json"));
                assertThat(strictSummary.path("good_request_count").path("avg").asInt()).as(e.getKey()).isZero();
                assertThat(strictSummary.path("good_request_fraction").path("avg").isNumber()).as(e.getKey()).isTrue();
                assertThat(strictSummary.path("good_request_fraction").path("avg").asDouble()).as(e.getKey()).isZero();
                assertThat(Runs.jsonl(one.resolve("profile_export.jsonl"))).allSatisfy(rec -> assertThat(
                        rec.at("/metrics/good_request_count/value").isInt()).as(e.getKey()).isTrue()).allSatisfy(rec ->
                        assertThat(rec.at("/metrics/good_request_count/value").asInt()).as(e.getKey()).isZero());
            }
        }
        // Upstream 0.13's good_request_fraction counts failed requests among the attempted ones: with every
        // successful request good, it is request_count / (request_count + error_request_count).
        try (MockServer failing = MockServer.start(MockServerConfig.fast().withErrorRate(50))) {
            final Path dir = tmp.resolve("failing");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", failing.url(), "--streaming", "--isl", "8",
                    "--osl", "4", "--request-count", "16", "--tokenizer", "builtin", "--goodput",
                    "request_latency:1e9", "--random-seed", "7", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            final double valid = s.path("request_count").path("avg").asDouble();
            final double errors = s.path("error_request_count").path("avg").asDouble();
            assertThat(errors).as("the mock failed some requests").isPositive();
            assertThat(valid).as("and answered some").isPositive();
            assertThat(s.path("good_request_count").path("avg").asDouble()).isEqualTo(valid);
            assertThat(s.path("good_request_fraction").path("avg").asDouble()).isEqualTo(valid / (valid + errors));
        }
        final Runs.Result unknown = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--goodput",
                "request_throughput:5", "--artifact-dir", tmp.resolve("none").toString());
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown goodput metric");
    }
}
