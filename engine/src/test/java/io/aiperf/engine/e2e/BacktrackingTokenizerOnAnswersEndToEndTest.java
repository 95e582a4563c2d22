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
 * A real tokenizer.json whose pre-tokenizer regex backtracks on the server's answers (runs of letters and spaces),
 * not on the prompts (digits): the answers are counted while the run goes on, so the watchdog has to stop the run
 * itself, and the process has to exit with the counting still stuck in native code.
 */
class BacktrackingTokenizerOnAnswersEndToEndTest {
    private static final String BACKTRACKING = """
            {"version": "1.0", "truncation": null, "padding": null, "added_tokens": [], "normalizer": null,
             "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "[a-z ]*[a-z ]*(?![a-z ])(?!$)"},
                               "behavior": "Isolated", "invert": false},
             "post_processor": null, "decoder": null,
             "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"}}
            """;
    /** Far more requests than the run sends once stopped: without the stop it would not end for a long time. */
    private static final int REQUESTS = 100_000;

    @TempDir
    Path tmp;

    @Test
    void aTokenizerStuckOnTheAnswersStopsTheRunWithOneError() throws Exception {
        final Path dir = tmp.resolve("backtracking");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("tokenizer.json"), BACKTRACKING);
        final Path input = Files.writeString(tmp.resolve("prompts.jsonl"),
                "{\"text\": \"0123456789-0123456789\", \"output_length\": 600}\n".repeat(20));
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path log = tmp.resolve("run.log");
            final Path run = tmp.resolve("run");
            final Process p = Runs.engineProcess(List.of("profile", "-m", "m", "-u", mock.url(), "--input-file",
                    input.toString(), "--custom-dataset-type", "single_turn", "--request-count",
                    Integer.toString(REQUESTS), "--concurrency", "2", "--tokenizer", dir.toString(),
                    "--artifact-dir", run.toString()), log).start();
            try {
                assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the run ended").isTrue(); // a bound, not a timing
                final String out = Files.readString(log);
                assertThat(p.exitValue()).as(out).isEqualTo(2);
                assertThat(out).contains("tokenizer " + dir + " spent more than")
                        .contains("while counting the answers' tokens")
                        .contains("use --tokenizer builtin, or fix the tokenizer.json")
                        .doesNotContain("Exception");
                final JsonNode outcome = Runs.json(run.resolve("cell_outcome.json"));
                assertThat(outcome.path("status").asText()).isEqualTo("failed");
                assertThat(outcome.toString()).contains("while counting the answers' tokens");
                assertThat(mock.controlState().inferenceRequests()).as("stopped long before its requests were sent")
                        .isLessThan(REQUESTS);
            } finally {
                p.destroyForcibly();
            }
        }
    }
}
