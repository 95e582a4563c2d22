package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each fault class of a hostile server, injected into the first request of four: that request becomes the right
 * error record within the configured bounds, and the other three are untouched.
 */
class FaultClassesEndToEndTest {
    private static final String CHAT = "/v1/chat/completions=";

    @TempDir
    Path tmp;

    private List<JsonNode> run(final String fault, final String... extra) throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1).withFaults(CHAT + fault))) {
            final Path dir = tmp.resolve("run");
            final List<String> args = new ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(), "--streaming",
                    "--concurrency", "1", "--request-count", "4", "--isl", "8", "--osl", "6",
                    "--request-timeout-seconds", "2", "--artifact-dir", dir.toString()));
            args.addAll(List.of(extra));
            final long t0 = System.nanoTime();
            final Runs.Result r = Runs.aiperf(args.toArray(new String[0]));
            assertThat((System.nanoTime() - t0) / 1e9).as("bounded by the timeouts").isLessThan(60);
            assertThat(r.exitCode()).as(r.err()).isZero();
            return Runs.jsonl(dir.resolve("profile_export.jsonl"));
        }
    }

    private static List<JsonNode> errors(final List<JsonNode> records) {
        return records.stream().filter(n -> !n.path("error").isNull()).toList();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "truncate:1       | ServerDisconnectedError   | ConnectionClosedException",
        "delay:5000:1     | TimeoutError              | timed out after 2.0 seconds",
        "stall:5000:1     | TimeoutError              | timed out after 2.0 seconds",
        "never:1          | TimeoutError              | timed out after 2.0 seconds",
        "error-event:1    | overloaded_error          | mock: the engine is overloaded",
        "status:429:1     | Too Many Requests         | ",
    })
    void aFaultFailsOnlyItsOwnRequest(final String fault, final String type, final String message) throws Exception {
        final List<JsonNode> records = run(fault);
        assertThat(records).hasSize(4);
        final List<JsonNode> errors = errors(records);
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0).path("error").path("type").asText()).contains(type);
        // Every line, failed or not, carries the end stamp upstream's record model requires, after its start.
        for (final JsonNode record : records) {
            final JsonNode meta = record.path("metadata");
            assertThat(meta.path("request_end_ns").isIntegralNumber()).as(record.toString()).isTrue();
            assertThat(meta.path("request_end_ns").asLong()).isGreaterThan(meta.path("request_start_ns").asLong());
        }
        if (message != null) {
            assertThat(errors.get(0).path("error").path("message").asText()).contains(message);
        }
    }

    @Test
    void anOversizedEventIsAnErrorRecord() throws Exception {
        final List<JsonNode> errors = errors(run("huge-event:300000:1", "--max-event-bytes", "65536"));
        assertThat(errors).singleElement().satisfies(e -> assertThat(e.path("error").path("message").asText())
                .contains("SSE event too large: more than 65536 bytes"));
    }

    @Test
    void anEndlessBodyEndsAsTooLargeWhileTheRestCompletes() throws Exception {
        final List<JsonNode> errors = errors(run("endless:1", "--max-event-bytes", "65536", "--max-response-bytes",
                "1048576"));
        assertThat(errors).singleElement().satisfies(e -> assertThat(e.path("error").path("message").asText())
                .containsAnyOf("SSE event too large", "response too large"));
        final List<JsonNode> bounded = errors(run("endless:1", "--max-event-bytes", "1048576", "--max-response-bytes",
                "1048576"));
        assertThat(bounded).singleElement().satisfies(e -> assertThat(e.path("error").path("message").asText())
                .contains("response too large: more than 1048576 bytes"));
    }

    @Test
    void splitAndInvalidUtf8AndAMissingDoneStillMeasure() throws Exception {
        assertThat(errors(run("bad-utf8:1"))).isEmpty();
        assertThat(errors(run("no-done:1"))).isEmpty();
    }

    @Test
    void mockFaultValuesAreValidated() {
        for (final String bad : List.of("delay:-5", "status:999", "huge-event:0", "status:503:0", "frobnicate")) {
            final Runs.Result r = Runs.aiperf("mock-server", "--fault", CHAT + bad, "-p", "0");
            assertThat(r.exitCode()).as(bad).isEqualTo(2);
            assertThat(r.err()).as(bad).contains("fault");
        }
        final Runs.Result rate = Runs.aiperf("mock-server", "--error-rate", "150", "-p", "0");
        assertThat(rate.exitCode()).isEqualTo(2);
        assertThat(rate.err()).contains("--error-rate");
    }

    /** A server's negative token count is an error record, not a silently missing OSL. */
    @org.junit.jupiter.api.Test
    void aNegativeUsageCountIsAnErrorRecord(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path tmp)
            throws Exception {
        final String body = "{\"id\":\"x\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"hello there\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":-3,\"total_tokens\":2}}";
        try (HostileServer server = jsonAnswer(body)) {
            final java.nio.file.Path dir = tmp.resolve("negative");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", server.url(), "--request-count", "2",
                    "--use-server-token-count", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.all()).isEqualTo(1);
            assertThat(java.nio.file.Files.readString(dir.resolve("profile_export.jsonl")))
                    .contains("the server's usage has a negative count: completion_tokens -3");
        }
    }

    /**
     * A JSON answer to a streaming request has no first token to time: its record carries no TTFT or ITL (as
     * upstream's records of unstreamed answers), instead of a TTFT equal to the latency and an ITL of 0.
     */
    @org.junit.jupiter.api.Test
    void aJsonAnswerToAStreamingRequestHasNoStreamingMetrics(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path tmp)
            throws Exception {
        final String body = "{\"id\":\"x\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"hello there, a plain answer\"},"
                + "\"finish_reason\":\"stop\"}]}";
        try (HostileServer server = jsonAnswer(body)) {
            final java.nio.file.Path dir = tmp.resolve("json-to-stream");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", server.url(), "--streaming",
                    "--request-count", "3", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.all()).isZero();
            final com.fasterxml.jackson.databind.JsonNode summary = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(summary.path("request_latency").path("avg").isNumber()).isTrue();
            assertThat(summary.has("time_to_first_token")).as(summary.toString()).isFalse();
            assertThat(summary.has("inter_token_latency")).isFalse();
            for (final String line : java.nio.file.Files.readAllLines(dir.resolve("profile_export.jsonl"))) {
                assertThat(line).contains("\"request_latency\"").doesNotContain("\"time_to_first_token\"");
            }
        }
    }

    /** A server that answers every request with {@code body} as a JSON 200, then closes. */
    private static HostileServer jsonAnswer(final String body) throws java.io.IOException {
        return new HostileServer("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body, 0);
    }
}
