package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --endpoint-type messages} (Anthropic's Messages API) against the mock, which answers only requests that carry
 * the API key (as a bearer token or as {@code x-api-key}).
 */
class MessagesEndToEndTest {
    private static final String KEY = "sk-ant-test-key";

    @TempDir
    Path tmp;

    private Runs.Result run(final MockServer mock, final Path dir, final String... extra) {
        final List<String> args = new ArrayList<>(List.of("profile", "-m", "claude-test", "-u", mock.url(),
                "--endpoint-type", "messages", "--api-key", KEY, "--request-count", "4", "--concurrency", "2",
                "--isl", "24", "--osl", "6", "--tokenizer", "builtin", "--export-level", "raw", "--artifact-dir",
                dir.toString()));
        args.addAll(List.of(extra));
        return Runs.aiperf(args.toArray(String[]::new));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void answersAreReadWithTheirTokensUsageAndTimings(final boolean streaming) throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 2).withApiKey(KEY))) {
            final Path dir = tmp.resolve("messages-" + streaming);
            final Runs.Result r = streaming ? run(mock, dir, "--streaming") : run(mock, dir);
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(mock.controlState().calls("/v1/messages")).isEqualTo(4);
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(4);
            assertThat(s.path("error_request_count").isMissingNode()).as(s.path("error_summary").toString()).isTrue();
            assertThat(s.path("output_sequence_length").path("avg").asDouble()).isEqualTo(6.0);
            assertThat(s.has("time_to_first_token")).isEqualTo(streaming);
            assertThat(s.has("inter_token_latency")).isEqualTo(streaming);
            if (streaming) {
                // six deltas, five gaps: ITL is (latency - TTFT) / 5, positive
                assertThat(s.path("inter_token_latency").path("avg").asDouble()).isPositive();
            }
            final JsonNode raw = Runs.jsonl(dir.resolve("profile_export_raw.jsonl")).get(0);
            final JsonNode request = raw.path("request");
            assertThat(request.path("model").asText()).isEqualTo("claude-test");
            assertThat(request.path("max_tokens").asInt()).isEqualTo(6);
            assertThat(request.path("messages").path(0).path("role").asText()).isEqualTo("user");
            assertThat(request.path("stream").isBoolean()).isTrue(); // always sent, as upstream sends it
            assertThat(request.path("stream").asBoolean()).isEqualTo(streaming);
            assertThat(request.has("stream_options")).isFalse();
            // The input tokens come from message_start, the output tokens from message_delta: both are kept.
            assertThat(raw.path("response").path("usage").path("completion_tokens").asInt()).isEqualTo(6);
            assertThat(raw.path("response").path("usage").path("prompt_tokens").asInt()).isPositive();
            assertThat(s.path("usage_prompt_tokens").path("avg").asDouble()).isPositive();
            assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).toString()).doesNotContain(KEY);
        }
    }

    @Test
    void thinkingDeltasAreReasoningAndCountInTheOutputLength() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withApiKey(KEY))) {
            final Path dir = tmp.resolve("thinking");
            final Runs.Result r = run(mock, dir, "--streaming", "--extra-inputs",
                    "{\"thinking\": {\"type\": \"enabled\", \"budget_tokens\": 1024}}");
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("reasoning_token_count").path("avg").asDouble()).isEqualTo(3.0);
            assertThat(s.path("output_token_count").path("avg").asDouble()).isEqualTo(3.0);
            assertThat(s.path("output_sequence_length").path("avg").asDouble()).isEqualTo(6.0);
        }
    }

    @Test
    void theAnthropicHeadersAreWhatTheServerNeeds() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withApiKey(KEY))) {
            // Without the key the mock refuses, as Anthropic does: every request is an error record, the run goes on.
            final Path dir = tmp.resolve("no-key");
            final Runs.Result r = Runs.aiperf("profile", "-m", "claude-test", "-u", mock.url(), "--endpoint-type",
                    "messages", "--request-count", "2", "--isl", "8", "--osl", "3", "--tokenizer", "builtin",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).isNotEqualTo(2);
            assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).path("error_request_count").path("avg")
                    .asInt()).isEqualTo(2);
        }
    }
}
