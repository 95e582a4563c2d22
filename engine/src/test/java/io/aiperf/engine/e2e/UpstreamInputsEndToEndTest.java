package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream AIPerf's inputs as its tutorials write them: the format told from the rows, raw payloads with any endpoint
 * type and as a directory, a row's {@code extra} in the request body, and random_pool directories.
 */
class UpstreamInputsEndToEndTest {
    @TempDir
    Path tmp;

    private static final String PAYLOADS = """
            {"messages": [{"role": "user", "content": "What is machine learning?"}], "model": "Qwen/Qwen3-0.6B", "max_tokens": 10}
            {"messages": [{"role": "user", "content": "Explain neural networks."}], "model": "Qwen/Qwen3-0.6B", "max_tokens": 20}
            {"messages": [{"role": "user", "content": "How does backpropagation work?"}], "model": "Qwen/Qwen3-0.6B", "temperature": 0.7}
            """;

    private Runs.Result profile(final MockServer mock, final Path dir, final String... more) {
        final List<String> args = new java.util.ArrayList<>(List.of("profile", "--url", mock.url(), "--tokenizer",
                "builtin", "--artifact-dir", dir.toString(), "--export-level", "raw"));
        args.addAll(List.of(more));
        return Runs.aiperf(args.toArray(String[]::new));
    }

    private static List<JsonNode> sent(final Path dir) throws Exception {
        return Runs.jsonl(dir.resolve("profile_export_raw.jsonl")).stream().map(l -> l.path("request")).toList();
    }

    @Test
    void rawPayloadsAreDetectedAndSentAsWrittenToTheChatEndpoint() throws Exception {
        final Path file = Files.writeString(tmp.resolve("payloads.jsonl"), PAYLOADS);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("raw");
            // the tutorial's second command: no --custom-dataset-type, no --endpoint-type
            final Runs.Result r = profile(mock, dir, "--input-file", file.toString(), "--model", "Qwen/Qwen3-0.6B",
                    "--streaming", "--concurrency", "2");
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> bodies = sent(dir);
            assertThat(bodies).hasSize(3);
            final List<String> lines = PAYLOADS.lines().toList();
            assertThat(bodies).allSatisfy(b -> assertThat(lines.stream().map(l -> {
                try {
                    return Runs.JSON.readTree(l);
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                }
            }).toList()).contains(b));
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("error_request_count").path("avg").asInt(0)).isZero();
        }
    }

    @Test
    void aRawPayloadDirectoryIsAConversationPerFile() throws Exception {
        final Path conv = Files.createDirectories(tmp.resolve("conversations"));
        Files.writeString(conv.resolve("session_001.jsonl"), """
                {"messages": [{"role": "user", "content": "What is Python?"}], "model": "m", "max_tokens": 5}
                {"messages": [{"role": "user", "content": "What is Python?"}, {"role": "assistant", "content": "A language."}, {"role": "user", "content": "Show me hello world."}], "model": "m", "max_tokens": 5}
                """);
        Files.writeString(conv.resolve("session_002.jsonl"), """
                {"messages": [{"role": "user", "content": "Explain REST APIs."}], "model": "m", "max_tokens": 5}
                {"messages": [{"role": "user", "content": "Explain REST APIs."}, {"role": "assistant", "content": "A style."}, {"role": "user", "content": "What about GraphQL?"}], "model": "m", "max_tokens": 5}
                """);
        Files.writeString(conv.resolve("notes.txt"), "not a payload"); // ignored, as upstream ignores non-.jsonl files
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("dir");
            final Runs.Result r = profile(mock, dir, "--input-file", conv.toString() + "/", "--model", "m",
                    "--custom-dataset-type", "raw_payload", "--streaming", "--concurrency", "2");
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> bodies = sent(dir);
            assertThat(bodies).hasSize(4); // two conversations of two turns, each turn once
            assertThat(bodies.stream().filter(b -> b.path("messages").size() == 3).count()).isEqualTo(2);
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(4);
        }
    }

    @Test
    void aTraceWithoutItsTypeIsDetectedAndReplayedOnItsSchedule() throws Exception {
        final Path trace = Files.writeString(tmp.resolve("trace.jsonl"), """
                {"timestamp": 0, "input_length": 20, "output_length": 4, "extra": {"nvext": {"priority": 1}}}
                {"timestamp": 50, "input_length": 20, "output_length": 4}
                """);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("trace");
            // upstream's fixed-schedule tutorial: --input-file and --fixed-schedule, nothing else about the file
            final Runs.Result r = profile(mock, dir, "-m", "m", "--input-file", trace.toString(), "--fixed-schedule");
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> bodies = sent(dir);
            assertThat(bodies).hasSize(2);
            // the row's extra is merged into its body, and only its
            assertThat(bodies.stream().filter(b -> b.path("nvext").path("priority").asInt() == 1).count()).isEqualTo(1);
            assertThat(bodies).allSatisfy(b -> assertThat(b.path("messages").isArray()).isTrue());
        }
    }

    @Test
    void aSingleTurnRowsExtraWinsOverExtraInputs() throws Exception {
        final Path file = Files.writeString(tmp.resolve("prompts.jsonl"), """
                {"text": "Hello there", "extra": {"temperature": 0.1, "top_k": 5}}
                {"text": "Hi again"}
                """);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("extra");
            final Runs.Result r = profile(mock, dir, "-m", "m", "--input-file", file.toString(), "--extra-inputs",
                    "temperature:0.9");
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> bodies = sent(dir);
            final JsonNode first = bodies.stream().filter(b -> b.toString().contains("Hello there")).findFirst()
                    .orElseThrow();
            final JsonNode second = bodies.stream().filter(b -> b.toString().contains("Hi again")).findFirst()
                    .orElseThrow();
            assertThat(first.path("temperature").asDouble()).isEqualTo(0.1);
            assertThat(first.path("top_k").asInt()).isEqualTo(5);
            assertThat(second.path("temperature").asDouble()).isEqualTo(0.9);
            assertThat(second.has("top_k")).isFalse();
            assertThat(Runs.json(dir.resolve("inputs.json")).toString()).contains("\"top_k\":5");
        }
    }

    @Test
    void aRandomPoolDirectoryDrawsOneRowOfEachPoolPerRequest() throws Exception {
        final Path pools = Files.createDirectories(tmp.resolve("pools"));
        Files.writeString(pools.resolve("a_queries.jsonl"), """
                {"text": "QUERY-ONE"}
                {"text": "QUERY-TWO"}
                """);
        Files.writeString(pools.resolve("b_contexts.jsonl"), """
                {"text": "CONTEXT-ONE"}
                """);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("pool");
            final Runs.Result r = profile(mock, dir, "-m", "m", "--input-file", pools.toString(), "--request-count", "8",
                    "--num-dataset-entries", "6", "--random-seed", "7");
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> bodies = sent(dir);
            assertThat(bodies).hasSize(8);
            assertThat(bodies).allSatisfy(b -> assertThat(b.path("messages").get(0).path("content").asText())
                    .matches("QUERY-(ONE|TWO) CONTEXT-ONE"));
        }
    }

    @Test
    void rowsOfNoKnownFormatAreOneLineExitTwo() throws Exception {
        final Path file = Files.writeString(tmp.resolve("odd.jsonl"), "{\"question\": \"why?\"}\n");
        final Runs.Result r = Runs.aiperf("profile", "-m", "m", "--url", "http://127.0.0.1:9", "--input-file",
                file.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).doesNotContain("\n").contains("cannot tell the format of")
                .contains("[question]").contains("--custom-dataset-type");
    }
}
