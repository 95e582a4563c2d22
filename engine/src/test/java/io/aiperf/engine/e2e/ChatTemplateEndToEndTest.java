package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --apply-chat-template} against the real mock: ISL is counted from the prompt the model's chat template
 * renders (a Llama 3-structured template, a word-level tokenizer in a Hugging Face cache), synthetic prompts are
 * shortened by the template's cost, the request body stays the plain chat; a tokenizer without a template stops the
 * run in one line before any traffic.
 */
class ChatTemplateEndToEndTest {
    private static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";
    private static final String SPECIALS = "<|begin_of_text|> <|start_header_id|> <|end_header_id|> <|eot_id|>";

    @TempDir
    Path tmp;

    /** Every word is one token, each special token one token: the hand counts below rely on that. */
    private static String wordsTokenizer() {
        final StringBuilder added = new StringBuilder();
        int id = 1;
        for (final String s : SPECIALS.split(" ")) {
            added.append(id == 1 ? "" : ",").append("{\"id\": ").append(id++).append(", \"content\": \"").append(s)
                    .append("\", \"single_word\": false, \"lstrip\": false, \"rstrip\": false, \"normalized\": false, "
                            + "\"special\": true}");
        }
        return "{\"version\": \"1.0\", \"truncation\": null, \"padding\": null, \"added_tokens\": [" + added
                + "], \"normalizer\": null, \"pre_tokenizer\": {\"type\": \"WhitespaceSplit\"}, \"post_processor\": "
                + "null, \"decoder\": null, \"model\": {\"type\": \"WordLevel\", \"vocab\": {\"[UNK]\": 0}, "
                + "\"unk_token\": \"[UNK]\"}}";
    }

    /** The model's files in the Hugging Face cache layout, as a download leaves them. */
    private Path cache(final String repo, final boolean withTemplate) throws Exception {
        final Path home = tmp.resolve("hf");
        final Path dir = home.resolve("hub/models--" + repo.replace("/", "--"));
        final Path snapshot = Files.createDirectories(dir.resolve("snapshots").resolve(COMMIT));
        Files.createDirectories(dir.resolve("refs"));
        Files.writeString(dir.resolve("refs/main"), COMMIT);
        Files.writeString(snapshot.resolve("tokenizer.json"), wordsTokenizer());
        final var config = new ObjectMapper().createObjectNode().put("bos_token", "<|begin_of_text|>")
                .put("eos_token", "<|eot_id|>");
        if (withTemplate) {
            try (InputStream in = getClass().getResourceAsStream("/chat-templates/llama3.jinja")) {
                config.put("chat_template", new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        Files.writeString(snapshot.resolve("tokenizer_config.json"), config.toString());
        return home;
    }

    private int run(final Path home, final Path log, final String... args) throws Exception {
        final ProcessBuilder pb = Runs.engineProcess(List.of(args), log);
        pb.environment().put("HF_HOME", home.toString());
        pb.environment().put("HF_HUB_OFFLINE", "1");
        pb.environment().remove("HF_HUB_CACHE");
        return pb.start().waitFor();
    }

    private static double isl(final Path dir) throws Exception {
        return Runs.json(dir.resolve("profile_export_aiperf.json")).path("input_sequence_length").path("avg")
                .asDouble();
    }

    private static String firstContent(final Path dir) throws Exception {
        return Runs.json(dir.resolve("inputs.json")).findValue("content").asText();
    }

    @Test
    void islIsCountedFromTheRenderedPromptAndSyntheticPromptsAreShortenedByTheTemplate() throws Exception {
        final Path home = cache("acme/chat", true);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path plain = tmp.resolve("plain");
            assertThat(run(home, tmp.resolve("plain.log"), "profile", "-m", "acme/chat", "-u", mock.url(),
                    "--streaming", "--request-count", "4", "--isl", "30", "--osl", "6", "--artifact-dir",
                    plain.toString())).as(Files.readString(tmp.resolve("plain.log"))).isZero();
            assertThat(isl(plain)).isEqualTo(30.0);
            assertThat(firstContent(plain).trim().split("\\s+")).hasSize(30);

            final Path templated = tmp.resolve("templated");
            assertThat(run(home, tmp.resolve("templated.log"), "profile", "-m", "acme/chat", "-u", mock.url(),
                    "--streaming", "--request-count", "4", "--isl", "30", "--osl", "6", "--apply-chat-template",
                    "--artifact-dir", templated.toString())).as(Files.readString(tmp.resolve("templated.log")))
                    .isZero();
            // The template costs 8 tokens around one user message (BOS, user header 3, end of turn, assistant header
            // 3): the prompt sent is 22 words, and counted as rendered it is the 30 asked for.
            final String sent = firstContent(templated);
            assertThat(sent.trim().split("\\s+")).hasSize(22);
            assertThat(sent).doesNotContain("<|start_header_id|>"); // the body is the plain chat, as upstream sends
            assertThat(isl(templated)).isEqualTo(30.0);
            for (final JsonNode r : Runs.jsonl(templated.resolve("profile_export.jsonl"))) {
                assertThat(r.path("metrics").path("input_sequence_length").path("value").asInt()).isEqualTo(30);
            }
        }
    }

    @Test
    void aLaterTurnCountsItsHistoryWithTheServersReplyAsRendered() throws Exception {
        final Path home = cache("acme/chat", true);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("turns");
            assertThat(run(home, tmp.resolve("turns.log"), "profile", "-m", "acme/chat", "-u", mock.url(),
                    "--streaming", "--conversation-num", "2", "--conversation-turn-mean", "2",
                    "--concurrency", "1", "--isl", "30", "--osl",
                    "6", "--apply-chat-template", "--artifact-dir", dir.toString()))
                    .as(Files.readString(tmp.resolve("turns.log"))).isZero();
            final Map<String, List<JsonNode>> sessions = new HashMap<>();
            for (final JsonNode r : Runs.jsonl(dir.resolve("profile_export.jsonl"))) {
                sessions.computeIfAbsent(r.path("metadata").path("x_correlation_id").asText(), k -> new ArrayList<>())
                        .add(r);
            }
            assertThat(sessions).isNotEmpty();
            for (final List<JsonNode> turns : sessions.values()) {
                turns.sort(Comparator.comparingInt(j -> j.path("metadata").path("turn_index").asInt()));
                assertThat(turns).hasSize(2);
                final int first = turns.get(0).path("metrics").path("input_sequence_length").path("value").asInt();
                final int reply = turns.get(0).path("metrics").path("output_sequence_length").path("value").asInt();
                final int second = turns.get(1).path("metrics").path("input_sequence_length").path("value").asInt();
                assertThat(first).isEqualTo(30);
                // BOS 1; the first user message 4 + 22; the reply 4 + its words; the second user message, shortened
                // by its wrap only, 4 + 26; the assistant header 3
                assertThat(second).isEqualTo(1 + 26 + 4 + reply + 30 + 3);
            }
        }
    }

    @Test
    void aTokenizerWithoutAChatTemplateIsOneLineAndExit2BeforeAnyTraffic() throws Exception {
        final Path home = cache("acme/base", false);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path log = tmp.resolve("base.log");
            assertThat(run(home, log, "profile", "-m", "acme/base", "-u", mock.url(), "--request-count", "3",
                    "--apply-chat-template", "--artifact-dir", tmp.resolve("none").toString())).isEqualTo(2);
            final String out = Files.readString(log).strip();
            assertThat(out).startsWith("error: invalid configuration: --apply-chat-template "
                    + "(benchmark.tokenizer.apply_chat_template): tokenizer 'acme/base' has no chat template")
                    .doesNotContain("\n").doesNotContain("Exception");
            assertThat(mock.controlState().inferenceRequests()).isZero();
            assertThat(tmp.resolve("none")).doesNotExist();
        }
    }
}
