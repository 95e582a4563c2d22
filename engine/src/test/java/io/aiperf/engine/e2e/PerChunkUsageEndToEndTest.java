package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream AIPerf 0.13's {@code --per-chunk-usage}: the request asks for usage on every chunk, and ITL divides the
 * decode time by OSL less the tokens the first chunk brought (here a mock that bundles 4 tokens in its first chunk,
 * as a server with a stream interval does), where without it the divisor is OSL - 1. Checked from each record's own
 * values, so the machine's speed does not matter.
 */
class PerChunkUsageEndToEndTest {
    private static final int FIRST_CHUNK = 4;
    private static final int OSL = 12;

    @TempDir
    Path tmp;

    private Path run(final MockServer mock, final String name, final boolean perChunk) {
        final Path dir = tmp.resolve(name);
        final List<String> args = new java.util.ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(),
                "--streaming", "--use-server-token-count", "--request-count", "4", "--isl", "16", "--osl",
                String.valueOf(OSL), "--tokenizer", "builtin", "--extra-inputs",
                "mock_first_chunk_tokens:" + FIRST_CHUNK, "--artifact-dir", dir.toString()));
        if (perChunk) {
            args.add("--per-chunk-usage");
        }
        final Runs.Result r = Runs.aiperf(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return dir;
    }

    private static double decode(final JsonNode record) {
        return v(record, "request_latency") - v(record, "time_to_first_token");
    }

    private static double v(final JsonNode record, final String tag) {
        return record.path("metrics").path(tag).path("value").asDouble();
    }

    @Test
    void itlLeavesOutTheFirstChunksTokensByTheServersPerChunkUsage() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(2, 5))) {
            final Path with = run(mock, "with", true);
            final JsonNode sent = Runs.json(with.resolve("inputs.json")).path("data").path(0).path("payloads").path(0);
            assertThat(sent.path("stream_options").path("continuous_usage_stats").asBoolean()).isTrue();
            assertThat(sent.path("stream_options").path("include_usage").asBoolean()).isTrue();
            final List<JsonNode> records = Runs.jsonl(with.resolve("profile_export.jsonl"));
            assertThat(records).hasSize(4);
            // A request the mock answers late gets its overdue tokens at once (decode time 0): the relation still
            // holds, and most requests space them, which is what tells the two divisors apart.
            assertThat(records).anySatisfy(r -> assertThat(decode(r)).isPositive());
            for (final JsonNode r : records) {
                assertThat(v(r, "output_sequence_length")).isEqualTo(OSL);
                assertThat(v(r, "inter_token_latency") * (OSL - FIRST_CHUNK)).isCloseTo(decode(r), within(1e-6));
            }
            final Path without = run(mock, "without", false);
            final JsonNode plain = Runs.json(without.resolve("inputs.json")).path("data").path(0).path("payloads")
                    .path(0);
            assertThat(plain.path("stream_options").has("continuous_usage_stats")).isFalse();
            final List<JsonNode> plainRecords = Runs.jsonl(without.resolve("profile_export.jsonl"));
            assertThat(plainRecords).hasSize(4).anySatisfy(r -> assertThat(decode(r)).isPositive());
            for (final JsonNode r : plainRecords) {
                assertThat(v(r, "inter_token_latency") * (OSL - 1)).isCloseTo(decode(r), within(1e-6));
            }
        }
    }

    @Test
    void itNeedsServerTokenCountsStreamingAndChatAsUpstreamSays() {
        final String[][] cases = {
            {"--streaming", "--per-chunk-usage"},
            {"--use-server-token-count", "--per-chunk-usage"},
            {"--streaming", "--use-server-token-count", "--endpoint-type", "completions", "--per-chunk-usage"},
        };
        final String[] expected = {"needs --use-server-token-count", "needs --streaming",
            "needs --endpoint-type chat"};
        for (int i = 0; i < cases.length; i++) {
            final List<String> args = new java.util.ArrayList<>(List.of("profile", "-m", "m", "-u",
                    "http://127.0.0.1:9", "--request-count", "1", "--tokenizer", "builtin"));
            args.addAll(List.of(cases[i]));
            final Runs.Result r = Runs.aiperf(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
            assertThat(r.err().strip()).doesNotContain("\n")
                    .startsWith("error: invalid configuration: --per-chunk-usage").contains(expected[i]);
        }
    }
}
