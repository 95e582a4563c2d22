package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream AIPerf 0.13's {@code --system-prompt} and {@code --system-prompt-file}: one verbatim system message with
 * every conversation, synthetic or from a file, put before a system message the file brought; the two options, an
 * empty text, a file that cannot be read and a clash with the synthetic system prompt are usage errors.
 */
class SystemPromptEndToEndTest {
    @TempDir
    Path tmp;

    private static JsonNode firstMessages(final JsonNode session) {
        return session.path("payloads").path(0).path("messages");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everySyntheticRequestCarriesTheVerbatimSystemMessage() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path run = tmp.resolve("synthetic");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--request-count",
                    "4", "--isl", "20", "--osl", "4", "--tokenizer", "builtin", "--system-prompt", "Answer briefly.",
                    "--artifact-dir", run.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<Map<String, Object>> seen = (List<Map<String, Object>>) mock.controlState().promptsSeen()
                    .get("recent");
            assertThat(seen).hasSize(4).allSatisfy(m -> assertThat(m.get("messages")).isEqualTo(2));
            for (final JsonNode session : Runs.json(run.resolve("inputs.json")).path("data")) {
                final JsonNode messages = firstMessages(session);
                assertThat(messages.path(0).path("role").asText()).isEqualTo("system");
                assertThat(messages.path(0).path("content").asText()).isEqualTo("Answer briefly.");
                assertThat(messages.path(1).path("role").asText()).isEqualTo("user");
            }
        }
    }

    @Test
    void theFileFormPutsItsTextBeforeTheSystemMessageOfAMultiTurnFile() throws Exception {
        final Path chats = Files.writeString(tmp.resolve("chats.jsonl"), """
                {"session_id": "a", "turns": [{"role": "system", "text": "You are terse."}, {"text": "What is a lighthouse?"}]}
                {"session_id": "b", "turns": [{"text": "Name a river."}]}
                """);
        final Path prompt = Files.writeString(tmp.resolve("system.txt"), "Be kind.\nAlways.");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path run = tmp.resolve("file");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--input-file", chats.toString(),
                    "--custom-dataset-type", "multi_turn", "--osl", "4", "--tokenizer", "builtin",
                    "--system-prompt-file", prompt.toString(), "--artifact-dir", run.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final Map<String, String> systemBySession = new java.util.HashMap<>();
            for (final JsonNode session : Runs.json(run.resolve("inputs.json")).path("data")) {
                final JsonNode messages = firstMessages(session);
                assertThat(messages.path(0).path("role").asText()).isEqualTo("system");
                systemBySession.put(messages.path(1).path("content").asText(),
                        messages.path(0).path("content").asText());
            }
            assertThat(systemBySession).containsEntry("What is a lighthouse?", "Be kind.\nAlways.\n\nYou are terse.")
                    .containsEntry("Name a river.", "Be kind.\nAlways.");
        }
    }

    @Test
    void conflictingEmptyOrUnreadableSystemPromptsAreOneLineUsageErrors() throws Exception {
        final Path empty = Files.writeString(tmp.resolve("empty.txt"), "  \n");
        final String[][] cases = {
            {"--system-prompt", "a", "--system-prompt-file", empty.toString()},
            {"--system-prompt", "   "},
            {"--system-prompt-file", empty.toString()},
            {"--system-prompt-file", tmp.resolve("missing.txt").toString()},
            {"--system-prompt", "a", "--shared-system-prompt-length", "10"},
        };
        final String[] expected = {"mutually exclusive", "empty or whitespace only", "empty or whitespace only",
            "cannot read", "fill the same place"};
        for (int i = 0; i < cases.length; i++) {
            final List<String> args = new java.util.ArrayList<>(List.of("profile", "-m", "m", "-u",
                    "http://127.0.0.1:9", "--request-count", "1", "--tokenizer", "builtin"));
            args.addAll(List.of(cases[i]));
            final Runs.Result r = Runs.aiperf(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(String.join(" ", cases[i]) + ": " + r.err()).isEqualTo(2);
            assertThat(r.err().strip()).as(String.join(" ", cases[i])).doesNotContain("\n")
                    .startsWith("error: invalid configuration: --system-prompt").contains(expected[i]);
        }
    }
}
