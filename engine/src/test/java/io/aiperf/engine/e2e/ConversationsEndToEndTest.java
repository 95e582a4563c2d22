package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multi-turn sessions, shared prefixes, pools and ShareGPT against real mock servers: what the engine says it sent
 * is checked against what the mocks saw.
 */
class ConversationsEndToEndTest {
    @TempDir
    Path tmp;

    private static Map<String, List<JsonNode>> bySession(final Path dir) throws Exception {
        final Map<String, List<JsonNode>> out = new HashMap<>();
        for (final JsonNode line : Runs.jsonl(dir.resolve("profile_export.jsonl"))) {
            out.computeIfAbsent(line.path("metadata").path("conversation_id").asText(), k -> new ArrayList<>())
                    .add(line);
        }
        out.values().forEach(l -> l.sort(Comparator.comparingInt(j -> j.path("metadata").path("turn_index").asInt())));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> recent(final MockServer mock) {
        return (List<Map<String, Object>>) mock.controlState().promptsSeen().get("recent");
    }

    private static double metric(final JsonNode line, final String tag) {
        return line.path("metrics").path(tag).path("value").asDouble();
    }

    @Test
    void aMultiTurnFileSendsEachTurnWithItsHistoryInOneSessionOnOneServer() throws Exception {
        final Path file = Files.writeString(tmp.resolve("chats.jsonl"), """
                {"session_id": "a", "turns": [{"role": "system", "text": "You are terse."}, {"text": "What is a lighthouse?"}, {"text": "Who keeps it?", "delay": 120}, {"text": "Why?"}]}
                {"session_id": "b", "turns": [{"text": "Name a river."}, {"text": "How long is it?", "output_length": 3}]}
                {"session_id": "c", "turns": [{"text": "One turn only."}]}
                """);
        try (MockServer one = MockServer.start(MockServerConfig.fast());
             MockServer two = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("chats");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", one.url(), "-u", two.url(), "--streaming",
                    "--input-file", file.toString(), "--custom-dataset-type", "multi_turn", "--concurrency", "2",
                    "--osl", "6", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.err()).doesNotContain("no stop condition");
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(6); // every conversation once, all turns
            final Map<String, List<JsonNode>> sessions = bySession(dir);
            assertThat(sessions.keySet()).containsExactlyInAnyOrder("a", "b", "c");
            assertThat(sessions.get("a")).extracting(l -> l.path("metadata").path("turn_index").asInt())
                    .containsExactly(0, 1, 2);
            // Each turn carries the history: ISL grows by the previous reply (as counted) and the new user text.
            final List<JsonNode> a = sessions.get("a");
            for (int t = 1; t < a.size(); t++) {
                assertThat(metric(a.get(t), "input_sequence_length")).as("turn " + t)
                        .isGreaterThan(metric(a.get(t - 1), "input_sequence_length")
                                + metric(a.get(t - 1), "output_sequence_length"));
            }
            // The think time: turn 1 of "a" left at least 120 ms after turn 0's reply ended.
            assertThat(a.get(1).path("metadata").path("request_start_ns").asLong()
                    - a.get(0).path("metadata").path("request_end_ns").asLong()).isGreaterThanOrEqualTo(120_000_000L);
            // One correlation id per session, and every request of a session reached the same server, with the
            // messages the history implies: system + user, then two more per turn.
            for (final Map.Entry<String, List<JsonNode>> e : sessions.entrySet()) {
                final String correlation = e.getValue().get(0).path("metadata").path("x_correlation_id").asText();
                assertThat(e.getValue()).allMatch(l -> l.path("metadata").path("x_correlation_id").asText()
                        .equals(correlation));
                final long onOne = recent(one).stream().filter(m -> correlation.equals(m.get("correlation_id"))).count();
                final long onTwo = recent(two).stream().filter(m -> correlation.equals(m.get("correlation_id"))).count();
                assertThat(List.of(onOne, onTwo)).as(e.getKey()).containsExactlyInAnyOrder(0L,
                        (long) e.getValue().size());
            }
            final String aId = a.get(0).path("metadata").path("x_correlation_id").asText();
            final List<Map<String, Object>> seenA = new ArrayList<>(recent(one));
            seenA.addAll(recent(two));
            assertThat(seenA.stream().filter(m -> aId.equals(m.get("correlation_id"))).map(m -> m.get("messages")))
                    .containsExactly(2, 4, 6);
            // The mock saw the client's ISL: the tokens of every message, by the same tokenizer.
            final List<Integer> tokens = seenA.stream().filter(m -> aId.equals(m.get("correlation_id")))
                    .map(m -> (Integer) m.get("tokens")).toList();
            for (int t = 0; t < 3; t++) {
                assertThat((double) tokens.get(t)).isCloseTo(metric(a.get(t), "input_sequence_length"),
                        org.assertj.core.data.Offset.offset(2.0 * (t + 1))); // newlines between messages
            }
            // inputs.json holds one payload per turn.
            final JsonNode inputs = Runs.json(dir.resolve("inputs.json"));
            assertThat(inputs.path("data").findValues("payloads").stream().map(JsonNode::size).toList())
                    .containsExactlyInAnyOrder(3, 2, 1);
        }
    }

    @Test
    void syntheticSessionsSharePrefixesAndTheMockSeesTheReuseUntilAReset() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("prefix");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--isl", "40", "--osl", "4",
                    "--num-prefix-prompts", "2", "--prefix-prompt-length", "200", "--num-dataset-entries", "6",
                    "--session-turns-mean", "3", "--conversation-num", "6", "--concurrency", "3",
                    "--random-seed", "5", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("request_count").path("avg").asInt()).isEqualTo(18);
            final Map<String, List<JsonNode>> sessions = bySession(dir);
            assertThat(sessions).hasSize(6).allSatisfy((id, turns) -> assertThat(turns).hasSize(3));
            // First turns carry a 200-token prefix plus a 40-token prompt.
            for (final List<JsonNode> turns : sessions.values()) {
                assertThat(metric(turns.get(0), "input_sequence_length")).isBetween(239.0, 242.0);
            }
            // A prefix-sharing dataset without a reset: the run warns that the cache may be warm.
            assertThat(s.path("validity").toString()).contains("warm_cache");
            final Map<String, Object> seen = mock.controlState().promptsSeen();
            // With 6 conversations over 2 prefixes, at least 4 first turns reuse a prefix; every later turn reuses
            // its own history.
            assertThat(((Number) seen.get("requests_with_reuse")).longValue()).isGreaterThanOrEqualTo(4 + 12);
            // The same first conversation again: after a reset the mock's cache is empty, without one it is warm.
            final List<Integer> firstTurnReuse = new ArrayList<>();
            for (final boolean reset : List.of(true, false)) {
                final List<String> args = new ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(), "--isl", "40",
                        "--osl", "4", "--num-prefix-prompts", "2", "--prefix-prompt-length", "200",
                        "--num-dataset-entries", "6", "--session-turns-mean", "3", "--conversation-num", "1",
                        "--random-seed", "5", "--tokenizer", "builtin", "--artifact-dir",
                        tmp.resolve("again-" + reset).toString()));
                if (reset) {
                    args.add("--reset-kv-cache");
                }
                final int before = ((Number) mock.controlState().promptsSeen().get("requests")).intValue();
                final Runs.Result again = Runs.aiperf(args.toArray(String[]::new));
                assertThat(again.exitCode()).as(again.err()).isZero();
                assertThat(Runs.json(tmp.resolve("again-" + reset).resolve("profile_export_aiperf.json"))
                        .path("validity").toString().contains("warm_cache")).isEqualTo(!reset);
                final List<Map<String, Object>> recent = recent(mock);
                final Map<String, Object> first = recent.get(recent.size() - 3); // three turns were sent
                assertThat(((Number) mock.controlState().promptsSeen().get("requests")).intValue()).isEqualTo(before + 3);
                firstTurnReuse.add((Integer) first.get("blocks_reused"));
                if (!reset) {
                    assertThat(first.get("blocks_reused")).isEqualTo(first.get("blocks"));
                }
            }
            assertThat(firstTurnReuse.get(0)).isZero();
            assertThat(firstTurnReuse.get(1)).isPositive();
        }
    }

    @Test
    void aSharedSystemPromptIsSentWithEveryTurnAndCountedInTheInput() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("system");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--isl", "30", "--osl", "4",
                    "--shared-system-prompt-length", "100", "--request-count", "4", "--tokenizer", "builtin",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("input_sequence_length").path("min").asDouble()).isEqualTo(130.0);
            assertThat(recent(mock)).allMatch(m -> m.get("messages").equals(2));
            final List<String> systems = Runs.json(dir.resolve("inputs.json")).findValues("messages").stream()
                    .map(m -> m.path(0).path("content").asText()).distinct().toList();
            assertThat(systems).hasSize(1);
        }
    }

    @Test
    void aRandomPoolIsSampledWithReplacementAndTheSeedFixesTheDraw() throws Exception {
        final Path pool = Files.writeString(tmp.resolve("pool.jsonl"), """
                {"text": "alpha question"}
                {"text": "beta question"}
                {"text": "gamma question"}
                """);
        final List<List<String>> draws = new ArrayList<>();
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            for (final String name : List.of("p1", "p2")) {
                final Path dir = tmp.resolve(name);
                final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--input-file",
                        pool.toString(), "--custom-dataset-type", "random_pool", "--dataset-sampling-strategy",
                        "random", "--conversation-num", "12", "--random-seed", "3", "--tokenizer", "builtin",
                        "--artifact-dir", dir.toString());
                assertThat(r.exitCode()).as(r.err()).isZero();
                final List<JsonNode> lines = new ArrayList<>(Runs.jsonl(dir.resolve("profile_export.jsonl")));
                lines.sort(Comparator.comparingInt(l -> l.path("metadata").path("session_num").asInt()));
                draws.add(lines.stream().map(l -> l.path("metadata").path("conversation_id").asText()).toList());
            }
        }
        assertThat(draws.get(0)).hasSize(12).isEqualTo(draws.get(1));
        final Map<String, Long> counts = draws.get(0).stream()
                .collect(Collectors.groupingBy(x -> x, Collectors.counting()));
        assertThat(counts.keySet()).hasSizeLessThanOrEqualTo(3);
        assertThat(counts.values()).anyMatch(n -> n > 1);
    }

    @Test
    void shareGptFromALocalCopyUsesTheFirstExchangeAndItsReplyLength() throws Exception {
        final String reply = "Sure. Here is a longer answer with quite a few words in it for the length.";
        final Path file = Files.writeString(tmp.resolve("ShareGPT_V3_unfiltered_cleaned_split.json"), """
                [
                  {"id": "1", "conversations": [{"from": "human", "value": "Tell me about lighthouses and keepers."}, {"from": "gpt", "value": "%s"}]},
                  {"id": "2", "conversations": [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello there, how can I help you today?"}]},
                  {"id": "3", "conversations": [{"from": "gpt", "value": "Starts with the model."}, {"from": "human", "value": "So it is skipped."}]},
                  {"id": "4", "conversations": [{"from": "human", "value": "Only one turn in this conversation."}]}
                ]
                """.formatted(reply));
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("sharegpt");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--public-dataset", "sharegpt",
                    "--input-file", tmp.toString(), "--request-count", "3", "--tokenizer", "builtin",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode inputs = Runs.json(dir.resolve("inputs.json"));
            assertThat(inputs.path("data")).hasSize(1); // "Hi" is under 4 tokens; 3 and 4 have no exchange
            final JsonNode body = inputs.path("data").path(0).path("payloads").path(0);
            assertThat(body.path("messages").path(0).path("content").asText())
                    .isEqualTo("Tell me about lighthouses and keepers.");
            assertThat(body.path("max_completion_tokens").asInt())
                    .isEqualTo(io.aiperf.engine.dataset.Tokenizer.builtin().count(reply));
        }
        final Runs.Result missing = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--public-dataset",
                "sharegpt", "--input-file", tmp.resolve("nowhere.json").toString(), "--artifact-dir",
                tmp.resolve("none").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("--public-dataset").contains("nowhere.json");
    }

    @Test
    void badConversationInputsStopBeforeAnyTrafficNamingTheFieldAndLine() throws Exception {
        final Path noTurns = Files.writeString(tmp.resolve("noturns.jsonl"),
                "{\"session_id\": \"a\", \"turns\": [{\"text\": \"hi\"}]}\n{\"session_id\": \"b\"}\n");
        final Path badDelay = Files.writeString(tmp.resolve("delay.jsonl"),
                "{\"session_id\": \"a\", \"turns\": [{\"text\": \"hi\"}, {\"text\": \"again\", \"delay\": -5}]}\n");
        final Path empty = Files.writeString(tmp.resolve("empty.jsonl"), "\n\n");
        final Path negative = Files.writeString(tmp.resolve("neg.jsonl"), "{\"text\": \"x\", \"timestamp\": -1}\n");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final String none = tmp.resolve("none").toString();
            final List<List<String>> cases = List.of(
                    List.of("--input-file", noTurns.toString(), "--custom-dataset-type", "multi_turn"),
                    List.of("--input-file", badDelay.toString(), "--custom-dataset-type", "multi_turn"),
                    List.of("--input-file", empty.toString()),
                    List.of("--input-file", negative.toString()),
                    List.of("--seq-dist", "256,128:40;512,256:50"),
                    List.of("--num-prefix-prompts", "3"),
                    List.of("--request-count", "5", "--conversation-num", "2"),
                    List.of("--session-turns-mean", "2", "--endpoint-type", "embeddings"),
                    List.of("--dataset-sampling-strategy", "sometimes"));
            final List<String> expected = List.of("noturns.jsonl line 2", "delay.jsonl line 1", "has no rows",
                    "neg.jsonl line 1", "add up to 90", "--prefix-prompt-length", "Both a request-count",
                    "embeddings endpoint has no conversation", "--dataset-sampling-strategy");
            for (int i = 0; i < cases.size(); i++) {
                final List<String> args = new ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(),
                        "--artifact-dir", none));
                args.addAll(cases.get(i));
                final Runs.Result r = Runs.aiperf(args.toArray(String[]::new));
                assertThat(r.exitCode()).as(cases.get(i) + ": " + r.err()).isEqualTo(2);
                assertThat(r.err()).as(cases.get(i).toString()).contains(expected.get(i));
            }
            assertThat(mock.controlState().inferenceRequests()).isZero();
        }
    }
}
