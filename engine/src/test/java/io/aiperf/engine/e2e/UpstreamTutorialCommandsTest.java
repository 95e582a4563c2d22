package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream AIPerf's tutorial commands as written there (upstream-tutorial-commands.txt): only the server address is
 * changed, to the mock's; the heredoc files are written as the tutorial's shell would.
 */
class UpstreamTutorialCommandsTest {
    @TempDir
    Path tmp;

    /** One tutorial example: its name and its command's words, after the files before it were written. */
    private record Example(String name, List<String> words) {
    }

    /** Reads the examples, writing each heredoc file under {@code tmp}. */
    private List<Example> examples(final String address) throws Exception {
        final List<String> lines;
        try (InputStream in = getClass().getResourceAsStream("/upstream-tutorial-commands.txt")) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        final List<Example> out = new ArrayList<>();
        final Map<String, Path> files = new LinkedHashMap<>();
        String name = null;
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i);
            if (line.startsWith("## ")) {
                name = line.substring(3);
            } else if (line.startsWith("cat > ")) {
                final String file = line.substring(6, line.indexOf(' ', 6));
                final StringBuilder body = new StringBuilder();
                while (!lines.get(++i).equals("EOF")) {
                    body.append(lines.get(i)).append('\n');
                }
                final Path p = tmp.resolve(file);
                Files.createDirectories(p.getParent());
                Files.writeString(p, body);
                files.put(file, p);
                if (Path.of(file).getParent() != null) {
                    files.put(Path.of(file).getParent() + "/", p.getParent()); // the directory form
                }
            } else if (line.startsWith("aiperf ")) {
                final StringBuilder command = new StringBuilder();
                String l = line;
                while (true) {
                    final boolean more = l.endsWith("\\");
                    command.append(more ? l.substring(0, l.length() - 1) : l);
                    if (!more && !openQuote(command)) {
                        break;
                    }
                    command.append(more ? " " : "\n");
                    l = lines.get(++i);
                }
                final List<String> words = new ArrayList<>();
                for (final String w : words(command.toString().replace("localhost:8000", address))) {
                    words.add(files.containsKey(w) ? files.get(w).toString() : w);
                }
                out.add(new Example(name, words.subList(1, words.size())));
            }
        }
        return out;
    }

    private static boolean openQuote(final CharSequence s) {
        return s.chars().filter(c -> c == '\'').count() % 2 == 1;
    }

    /** A shell's words: spaces split, single and double quotes keep their text whole (newlines too). */
    private static List<String> words(final String line) {
        final List<String> out = new ArrayList<>();
        final StringBuilder w = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (final char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(w.toString());
        }
        return out;
    }

    @Test
    void everyTutorialCommandRunsAsWritten() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final String address = mock.url().replaceFirst("^http://", "").replaceAll("/$", "");
            final List<Example> examples = examples(address);
            assertThat(examples).extracting(Example::name).hasSize(9).contains("fixed-schedule: basic",
                    "raw-payload-replay: directory", "template-endpoint: basic example", "embeddings: custom input file");
            for (final Example e : examples) {
                final Path dir = tmp.resolve("run-" + e.name().replaceAll("[^a-z]+", "-"));
                final List<String> args = new ArrayList<>(e.words());
                args.addAll(List.of("--artifact-dir", dir.toString()));
                final Runs.Result r = Runs.aiperf(args.toArray(String[]::new));
                assertThat(r.exitCode()).as(e.name() + "\n" + r.err()).isZero();
                final com.fasterxml.jackson.databind.JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
                assertThat(s.path("request_count").path("avg").asInt()).as(e.name()).isPositive();
                assertThat(s.path("error_request_count").path("avg").asInt(0)).as(e.name()).isZero();
            }
        }
    }
}
