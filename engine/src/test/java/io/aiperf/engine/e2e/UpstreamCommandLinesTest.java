package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Twenty command lines written the way upstream's tutorials write them run unchanged against the mock. */
class UpstreamCommandLinesTest {
    @TempDir
    Path tmp;

    /** Splits a command line on spaces, keeping double-quoted parts whole (as a shell would). */
    private static List<String> words(final String line) {
        final List<String> out = new ArrayList<>();
        final StringBuilder w = new StringBuilder();
        boolean quoted = false;
        for (final char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ' ' && !quoted) {
                if (w.length() > 0) {
                    out.add(w.toString());
                    w.setLength(0);
                }
            } else {
                w.append(c);
            }
        }
        if (w.length() > 0) {
            out.add(w.toString());
        }
        return out;
    }

    @Test
    void everyLineRunsAndWritesItsSummary() throws Exception {
        final List<String> lines = new ArrayList<>();
        try (InputStream in = getClass().getResourceAsStream("/upstream-style-command-lines.txt")) {
            for (final String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!l.isBlank() && !l.startsWith("#")) {
                    lines.add(l.trim());
                }
            }
        }
        assertThat(lines).hasSize(20);
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(2, 1))) {
            for (int i = 0; i < lines.size(); i++) {
                final Path dir = tmp.resolve("line" + i);
                final List<String> args = new ArrayList<>(words(lines.get(i).replace("{url}", mock.url())));
                args.addAll(List.of("--artifact-dir", dir.toString()));
                final Runs.Result r = Runs.aiperf(args.toArray(String[]::new));
                assertThat(r.exitCode()).as(lines.get(i) + "\n" + r.err()).isZero();
                try (Stream<Path> files = Files.walk(dir)) {
                    assertThat(files.map(p -> p.getFileName().toString())
                            .anyMatch(n -> n.equals("profile_export_aiperf.json") || n.equals("my_run.json")))
                            .as(lines.get(i)).isTrue();
                }
            }
        }
    }
}
