package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real tokenizer.json whose pre-tokenizer regex backtracks: the native library's own per-match limit never trips
 * (each call takes a second or more, not for ever), so only the engine's watchdog ends the run, before any traffic,
 * while a call is still running in native code.
 */
class BacktrackingTokenizerEndToEndTest {
    /**
     * A run of letters split in two ways, then a look-ahead that fails everywhere but at the end: cubic in the run's
     * length (about 1.5 s for 800 letters on an idle core), below the regex engine's retry limit per position.
     */
    private static final String BACKTRACKING = """
            {"version": "1.0", "truncation": null, "padding": null, "added_tokens": [], "normalizer": null,
             "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "[a-z]*[a-z]*(?![a-z])(?!$)"},
                               "behavior": "Isolated", "invert": false},
             "post_processor": null, "decoder": null,
             "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "a": 1}, "unk_token": "[UNK]"}}
            """;
    /** Rows enough to keep a tokenizer without a watchdog busy for far longer than the test waits. */
    private static final int ROWS = 2_000;

    @TempDir
    Path tmp;

    @Test
    void aBacktrackingTokenizerEndsTheRunWithOneErrorBeforeTrafficWhileItsCallIsStillStuck() throws Exception {
        final Path dir = tmp.resolve("backtracking");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("tokenizer.json"), BACKTRACKING);
        final StringBuilder rows = new StringBuilder();
        for (int i = 0; i < ROWS; i++) {
            rows.append("{\"text\": \"").append("a".repeat(800)).append("\"}\n");
        }
        final Path input = Files.writeString(tmp.resolve("prompts.jsonl"), rows);
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path log = tmp.resolve("run.log");
            final Path run = tmp.resolve("run");
            final Process p = Runs.engineProcess(List.of("profile", "-m", "m", "-u", mock.url(), "--input-file",
                    input.toString(), "--custom-dataset-type", "single_turn", "--request-count", "3",
                    "--tokenizer", dir.toString(), "--artifact-dir", run.toString()), log).start();
            try {
                // Without the watchdog this takes 2,000 calls of a second or more each: the wait would run out.
                assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the run ended").isTrue();
                final String out = Files.readString(log);
                assertThat(p.exitValue()).as(out).isEqualTo(2);
                assertThat(out).contains("error: invalid configuration: --tokenizer").contains("tokenizer " + dir + " spent more than")
                        .contains("while building prompts (the bound is 10.0 s plus 1 s per 100,000 characters)")
                        .contains("use --tokenizer builtin, or fix the tokenizer.json")
                        .doesNotContain("Exception");
                assertThat(out.lines().filter(l -> l.startsWith("error:")).count()).isEqualTo(1);
                // Far fewer characters than the file holds were read: it ended while tokenizing, not after.
                final long chars = Long.parseLong(out.replaceAll("(?s).* s on (\\d+) characters.*", "$1"));
                assertThat(chars).isLessThan(ROWS * 800L);
                assertThat(mock.controlState().inferenceRequests()).isZero();
            } finally {
                p.destroyForcibly();
            }
        }
    }
}
