package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trace in the wrong unit is refused in one line instead of waiting for decades. */
@org.junit.jupiter.api.Timeout(300) // the old engine waited for 55 years: fail instead of hanging the build
class TracePlausibilityEndToEndTest {
    @TempDir
    Path tmp;

    private Runs.Result profile(final String url, final Path rows, final String... extra) {
        final java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("profile", "-m", "m", "-u", url,
                "--input-file", rows.toString(), "--tokenizer", "builtin", "--artifact-dir",
                tmp.resolve("out" + System.nanoTime()).toString()));
        args.addAll(java.util.List.of(extra));
        return Runs.aiperf(args.toArray(new String[0]));
    }

    @Test
    void epochMillisecondTimestampsAreRefusedUnlessOffset() throws Exception {
        final Path epoch = Files.writeString(tmp.resolve("epoch.jsonl"), """
                {"text": "a", "timestamp": 1733000000000}
                {"text": "b", "timestamp": 1733000000050}
                """);
        final Runs.Result refused = profile("http://127.0.0.1:9", epoch);
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err().lines().filter(l -> l.startsWith("error:")).toList()).hasSize(1); // one line
        assertThat(refused.err()).doesNotContain("\tat ");
        assertThat(refused.err()).contains("looks like epoch milliseconds").contains("--fixed-schedule-auto-offset");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Runs.Result offset = profile(mock.url(), epoch, "--fixed-schedule-auto-offset");
            assertThat(offset.exitCode()).as(offset.all()).isZero();
            assertThat(mock.controlState().inferenceRequests()).isEqualTo(2);
        }
        final Path gap = Files.writeString(tmp.resolve("gap.jsonl"), """
                {"text": "a", "timestamp": 0}
                {"text": "b", "timestamp": 1000000000000}
                """);
        final Runs.Result span = profile("http://127.0.0.1:9", gap);
        assertThat(span.exitCode()).isEqualTo(2);
        assertThat(span.err()).contains("spans").contains("7-day limit");
    }

    @Test
    void aHugeTurnDelayIsRefused() throws Exception {
        final Path rows = Files.writeString(tmp.resolve("turns.jsonl"), """
                {"session_id": "s", "turns": [{"text": "a"}, {"text": "b", "delay": 1733000000000}]}
                """);
        final Runs.Result r = profile("http://127.0.0.1:9", rows, "--custom-dataset-type", "multi_turn");
        assertThat(r.exitCode()).as(r.all()).isEqualTo(2);
        assertThat(r.err()).contains("line 1").contains("turn 2 waits 1733000000000 ms").contains("24-hour limit");
    }
}
