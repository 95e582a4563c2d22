package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep-line metrics of a real run against the embedded mock: all fourteen in the summary JSON and CSV in
 * upstream 0.13's shape, the effective concurrency near the run's concurrency and never above it, and the identities
 * a time-weighted sweep over the run's window must satisfy whatever the timing (Little's law on the latencies, the
 * token rates integrating to the token totals).
 */
class SweepLineMetricsEndToEndTest {
    private static final int CONCURRENCY = 4;
    private static final int REQUESTS = 40;
    private static final List<String> TAGS = List.of("effective_concurrency", "effective_decode_throughput",
            "effective_prefill_throughput", "effective_decode_concurrency", "effective_prefill_concurrency",
            "effective_total_throughput", "effective_decode_throughput_per_user",
            "effective_prefill_throughput_per_user", "tokens_in_flight", "active_decode_throughput",
            "active_prefill_throughput", "active_decode_throughput_per_user", "active_prefill_throughput_per_user",
            "active_total_throughput");

    @TempDir
    Path tmp;

    @Test
    void aStreamingRunHasTheSweepLineMetricsAndTheyAddUp() throws Exception {
        final Path dir = tmp.resolve("run");
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(20, 5))) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "mock-model", "--url", mock.url(), "--tokenizer",
                    "builtin", "--artifact-dir", dir.toString(), "--ui-type", "none", "--endpoint-type", "chat",
                    "--streaming", "--concurrency", String.valueOf(CONCURRENCY), "--request-count",
                    String.valueOf(REQUESTS), "--isl", "64", "--osl", "16", "--random-seed", "42");
            assertThat(r.exitCode()).as(r.err()).isZero();
        }
        final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
        for (final String tag : TAGS) {
            assertThat(s.path(tag).fieldNames()).toIterable().as(tag)
                    .containsExactly("unit", "avg", "p50", "p90", "p95", "p99", "min", "max", "std");
        }
        assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(REQUESTS);
        final double seconds = s.path("benchmark_duration").path("avg").asDouble();
        final JsonNode concurrency = s.path("effective_concurrency");
        assertThat(concurrency.path("unit").asText()).isEqualTo("requests");
        assertThat(concurrency.path("max").asDouble()).isEqualTo(CONCURRENCY);
        assertThat(concurrency.path("avg").asDouble()).isBetween(CONCURRENCY * 0.6, (double) CONCURRENCY);
        // Little's law over the window: the time-weighted requests in flight are the latencies over the duration
        final double latencySeconds = s.path("request_latency").path("sum").asDouble() / 1000;
        assertThat(concurrency.path("avg").asDouble()).isCloseTo(latencySeconds / seconds, within(1e-6));
        // every request is in prefill or in decode while it is in flight
        assertThat(s.path("effective_prefill_concurrency").path("avg").asDouble()
                + s.path("effective_decode_concurrency").path("avg").asDouble())
                .isCloseTo(concurrency.path("avg").asDouble(), within(1e-9));
        // prefill integrates to the ISL, decode to the OSL less the first token of each request
        final double isl = s.path("total_isl").path("avg").asDouble();
        final double osl = s.path("total_osl").path("avg").asDouble();
        assertThat(s.path("effective_prefill_throughput").path("avg").asDouble())
                .isCloseTo(s.path("input_token_throughput").path("avg").asDouble(), within(1e-6));
        assertThat(s.path("effective_decode_throughput").path("avg").asDouble() * seconds)
                .isCloseTo(osl - REQUESTS, within(1e-6 * osl));
        assertThat(s.path("effective_total_throughput").path("avg").asDouble() * seconds)
                .isCloseTo(isl + osl - REQUESTS, within(1e-6 * (isl + osl)));
        // the mock sends a token per 5 ms: a decoding request's own rate (about 200/s), not the run's (about 800/s)
        assertThat(s.path("active_decode_throughput_per_user").path("p50").asDouble()).isBetween(50.0, 500.0);
        assertThat(s.path("tokens_in_flight").path("max").asDouble()).isLessThanOrEqualTo(CONCURRENCY * (64 + 16));

        final List<String> csv = Files.readAllLines(dir.resolve("profile_export_aiperf.csv"));
        assertThat(csv).anySatisfy(l -> assertThat(l).startsWith("Effective Concurrency," + String.format(
                java.util.Locale.ROOT, "%.2f", concurrency.path("avg").asDouble()) + ",").matches(".*,,,,,,[^,]+,,[^,]+,[^,]+,[^,]+,[^,]+$"));
        assertThat(csv).anySatisfy(l -> assertThat(l).startsWith("Active Decode Throughput Per User (tokens/sec/user),"));
        assertThat(csv).anySatisfy(l -> assertThat(l).startsWith("Tokens In Flight (tokens),"));
    }
}
