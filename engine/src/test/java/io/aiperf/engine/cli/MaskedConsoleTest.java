package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The console while a command runs: its command line's secrets hidden, the streams given back afterwards. */
class MaskedConsoleTest {
    @Test
    void hidesTheSecretsPassesOnALastLineWithoutItsEndAndPutsTheStreamsBack() {
        // Load the classes before the capture: after a fuzz test, Jazzer's agent in this JVM reports each class it
        // instruments on System.err, which would land in the capture when the test runs after one.
        try (MaskedConsole warm = MaskedConsole.install("--api-key", "k-warm-up")) {
            assertThat(warm).isNotNull();
        }
        final PrintStream before = System.err;
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream capture = new PrintStream(err, true, StandardCharsets.UTF_8);
        System.setErr(capture);
        try {
            try (MaskedConsole masked = MaskedConsole.install("--api-kye", "k-123456")) {
                System.err.println("error: Unknown options: '--api-kye', 'k-123456'");
                System.err.print("no line end: k-123456");
            }
            assertThat(System.err).isSameAs(capture);
        } finally {
            System.setErr(before);
        }
        // (a class loaded meanwhile may log to the same stream, as the fuzzers' instrumentation does in the suite)
        assertThat(err.toString(StandardCharsets.UTF_8)).endsWith(
                "error: Unknown options: '--api-kye', '<redacted>'\nno line end: <redacted>").doesNotContain("k-123456");
    }

    @Test
    void aCommandLineWithoutASecretKeepsTheStreams() {
        final PrintStream before = System.out;
        try (MaskedConsole masked = MaskedConsole.install("profile", "-m", "m", "--request-cout", "5")) {
            assertThat(System.out).isSameAs(before);
        }
    }
}
