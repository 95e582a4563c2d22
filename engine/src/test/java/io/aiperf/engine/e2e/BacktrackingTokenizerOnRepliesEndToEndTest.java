package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multi-turn conversations: the server's reply to a turn becomes history, and the run counts it (and renders it into
 * the next turn's chat template) while traffic goes on, on the turns' own thread. A real tokenizer.json whose
 * pre-tokenizer backtracks on the replies (runs of letters and spaces), not on the prompts (digits), must stop the run
 * with one error there too. The server's own token counts are used, so the answers' metrics never touch the
 * tokenizer: only the replies' history does.
 */
class BacktrackingTokenizerOnRepliesEndToEndTest {
    private static final String BACKTRACKING = """
            {"version": "1.0", "truncation": null, "padding": null, "added_tokens": [], "normalizer": null,
             "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "%s"},
                               "behavior": "Isolated", "invert": false},
             "post_processor": null, "decoder": null,
             "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"}}
            """;
    /** Backtracks on any long run of letters and spaces: a reply. */
    private static final String ON_LETTERS = "[a-z ]*[a-z ]*(?![a-z ])(?!$)";
    /**
     * Backtracks only on a long run of capitals and spaces: the chat template below writes a reply (lower case words)
     * in capitals, so only a later turn's rendering holds one; the reply counted alone, the prompts (digits) and the
     * template's short samples measured at setup do not.
     */
    private static final String ON_TEMPLATED = "[A-Z ]*[A-Z ]*(?![A-Z ])(?!$)";
    private static final String TEMPLATE_CONFIG = """
            {"chat_template": "{% for m in messages %}{{ m.role }}: {{ m.content | upper }}\\n{% endfor %}assistant:"}
            """;
    /** Far more requests than the run sends once stopped: without the stop it would not end for a long time. */
    private static final int REQUESTS = 100_000;

    @TempDir
    Path tmp;

    @Test
    void aTokenizerStuckOnARepliedTurnStopsTheRunWithOneError() throws Exception {
        final Path dir = tokenizer("letters", ON_LETTERS, false);
        runStopsWithOneError(dir, List.of());
    }

    @Test
    void aTokenizerStuckOnALaterTurnsChatTemplateStopsTheRunWithOneError() throws Exception {
        final Path dir = tokenizer("templated", ON_TEMPLATED, true);
        runStopsWithOneError(dir, List.of("--apply-chat-template"));
    }

    private Path tokenizer(final String name, final String regex, final boolean template) throws Exception {
        final Path dir = tmp.resolve(name);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("tokenizer.json"), BACKTRACKING.formatted(regex));
        if (template) {
            Files.writeString(dir.resolve("tokenizer_config.json"), TEMPLATE_CONFIG);
        }
        return dir;
    }

    private void runStopsWithOneError(final Path tokenizer, final List<String> extra) throws Exception {
        final Path input = Files.writeString(tmp.resolve("conversations.jsonl"),
                "{\"session_id\": \"s\", \"turns\": [{\"text\": \"0123456789-0123456789\", \"output_length\": 600},"
                        + " {\"text\": \"9876543210\", \"output_length\": 600}]}\n");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path log = tmp.resolve("run.log");
            final Path run = tmp.resolve("run");
            final List<String> args = new java.util.ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(),
                    "--endpoint-type", "chat", "--input-file", input.toString(), "--custom-dataset-type",
                    "multi_turn", "--request-count", Integer.toString(REQUESTS), "--concurrency", "2",
                    "--use-server-token-count", "--tokenizer", tokenizer.toString(), "--artifact-dir",
                    run.toString()));
            args.addAll(extra);
            final Process p = Runs.engineProcess(args, log).start();
            try {
                assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the run ended").isTrue(); // a bound, not a timing
                final String out = Files.readString(log);
                assertThat(p.exitValue()).as(out).isEqualTo(2);
                assertThat(out).contains("tokenizer " + tokenizer + " spent more than")
                        .contains("while counting the answers' tokens")
                        .doesNotContain("Exception");
                assertThat(out.lines().filter(l -> l.contains("spent more than")).count())
                        .as("one error line: " + out).isEqualTo(1);
                final JsonNode outcome = Runs.json(run.resolve("cell_outcome.json"));
                assertThat(outcome.path("status").asText()).isEqualTo("failed");
                assertThat(mock.controlState().inferenceRequests()).as("stopped long before its requests were sent")
                        .isLessThan(REQUESTS);
            } finally {
                p.destroyForcibly();
            }
        }
    }
}
