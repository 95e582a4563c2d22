package io.aiperf.engine.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The help blocks of src-docs/cli.md are the commands' real {@code --help} output, so the page cannot drift from
 * the code: a block is compared line by line with what the command prints. A block that ends in a line starting
 * with "(then" shows the head of a longer help (compare's, whose tail is profile's options) and must be its prefix.
 */
class CliHelpBlocksTest {
    private static final Pattern BLOCK = Pattern.compile("```text\n(Usage: aiperf .*?)```", Pattern.DOTALL);

    private static String help(final List<String> words) {
        final StringWriter text = new StringWriter();
        final CommandLine cl = Main.commandLine();
        CommandLine target = cl;
        for (final String w : words) {
            target = target.getSubcommands().get(w);
        }
        target.usage(new PrintWriter(text, true));
        return text.toString();
    }

    /** The command's words: those after "aiperf" up to the first option or placeholder. */
    private static List<String> words(final String usageLine) {
        final List<String> words = new ArrayList<>();
        for (final String w : usageLine.substring("Usage: aiperf ".length()).split(" ")) {
            if (w.startsWith("[") || w.startsWith("-") || !w.matches("[a-z-]+")) {
                break;
            }
            words.add(w);
        }
        return words;
    }

    /** A block's lines split into one list per command: each starts at a "Usage: aiperf" line. */
    private static List<List<String>> segments(final String block) {
        final List<List<String>> segments = new ArrayList<>();
        final List<String> lines = Arrays.asList(block.split("\n", -1));
        for (final String line : lines.subList(0, lines.size() - 1)) {
            if (line.startsWith("Usage: aiperf ")) {
                segments.add(new ArrayList<>());
            }
            segments.get(segments.size() - 1).add(line);
        }
        return segments;
    }

    @Test
    void everyHelpBlockIsTheCommandsRealHelp() throws Exception {
        final String page = Files.readString(Path.of(System.getProperty("aiperf.docs.dir", "../src-docs"), "cli.md"));
        final Matcher m = BLOCK.matcher(page);
        final List<String> checked = new ArrayList<>();
        while (m.find()) {
            for (final List<String> segment : segments(m.group(1))) {
                final List<String> words = words(segment.get(0));
                final List<String> real = help(words).lines().map(String::stripTrailing).toList();
                final boolean head = segment.get(segment.size() - 1).startsWith("(then");
                final List<String> shown = head ? segment.subList(0, segment.size() - 1) : segment;
                final String what = "the help block of 'aiperf " + String.join(" ", words)
                        + "' in src-docs/cli.md (regenerate it: .ci/regen-cli-help)";
                assertThat(head ? real.subList(0, Math.min(shown.size(), real.size())) : real).as(what)
                        .isEqualTo(shown);
                checked.add(String.join(" ", words));
            }
        }
        assertThat(checked).contains("profile", "compare", "gate", "aggregate", "report", "mock-server",
                "config validate", "config expand");
    }
}
