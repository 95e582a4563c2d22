package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream AIPerf's closing console lines, which scripts grep, after the table: word for word, paths that exist. */
class UpstreamConsoleEndToEndTest {
    @TempDir
    Path tmp;

    private static String line(final String out, final String label) {
        final Matcher m = Pattern.compile("(?m)^" + Pattern.quote(label) + ": (.+)$").matcher(out);
        assertThat(m.find()).as(label + " line in:\n" + out).isTrue();
        return m.group(1).strip();
    }

    @Test
    void theClosingLinesAreUpstreams() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("run");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "4",
                    "--api-key", "sk-secret-in-command", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final String out = r.out();
            final String command = line(out, "CLI Command");
            assertThat(command).startsWith("aiperf profile").contains("--request-count 4")
                    .doesNotContain("sk-secret-in-command");
            assertThat(line(out, "Benchmark Duration")).matches("\\d+\\.\\d{2} sec");
            for (final String label : List.of("CSV Export", "JSON Export", "Log File")) {
                final Path p = Path.of(line(out, label));
                assertThat(p).isAbsolute();
                assertThat(Files.isRegularFile(p)).as(label + " " + p).isTrue();
            }
            assertThat(line(out, "CSV Export")).endsWith("profile_export_aiperf.csv");
            assertThat(line(out, "JSON Export")).endsWith("profile_export_aiperf.json");
            assertThat(out.indexOf("CLI Command:")).isGreaterThan(out.indexOf("LLM Metrics"));
        }
    }
}
