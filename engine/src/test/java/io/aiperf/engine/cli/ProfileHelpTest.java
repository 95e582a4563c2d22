package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** profile's help lists every option exactly once, under its topic, then examples; each command has examples. */
class ProfileHelpTest {
    private static String help(final String command) {
        final CommandLine cl = Main.commandLine().getSubcommands().get(command);
        final StringWriter out = new StringWriter();
        cl.usage(new PrintWriter(out));
        return out.toString();
    }

    @Test
    void everyProfileOptionNamesItsTopic() {
        final List<String> untopical = Main.commandLine().getSubcommands().get("profile").getCommandSpec().options()
                .stream().filter(o -> ProfileHelp.topicOf(o) == null && !o.hidden()).map(OptionSpec::longestName)
                .toList();
        assertThat(untopical).as("options with no @Topic (on the field or its mixin class)").isEmpty();
    }

    @Test
    void profileHelpIsGroupedByTopicWithEveryOptionOnce() {
        final String text = help("profile");
        assertThat(text).startsWith("Usage: aiperf profile [OPTIONS]");
        int at = 0;
        for (final String topic : java.util.Arrays.stream(HelpTopic.values()).map(t -> t.title).toList()) {
            final int i = text.indexOf("\n" + topic + ":\n");
            assertThat(i).as(topic).isGreaterThan(at);
            at = i;
        }
        // The option column of each option line: "  -m, --model, --model-names=MODEL   description".
        final List<String> listed = new ArrayList<>();
        final java.util.regex.Pattern line = java.util.regex.Pattern.compile("^ {2,6}(-[^ ].*?)(?: {2,}.*)?$");
        for (final String l : text.replaceAll(",\n +", ", ").lines().toList()) { // names wrapped after a comma
            final java.util.regex.Matcher m = line.matcher(l);
            if (m.matches()) {
                for (final String name : m.group(1).split(", ")) {
                    listed.add(name.replaceAll("[=\\[].*$", "").trim());
                }
            }
        }
        for (final OptionSpec o : Main.commandLine().getSubcommands().get("profile").getCommandSpec().options()) {
            for (final String name : o.names()) {
                assertThat(listed.stream().filter(name::equals).count()).as(name + " listed once").isEqualTo(1);
            }
        }
        assertThat(text.indexOf("\nExamples:\n")).isGreaterThan(at);
    }

    @Test
    void everyCommandEndsWithThreeExamples() {
        for (final String command : List.of("profile", "config", "mock-server", "gate", "aggregate", "report",
                "compare")) {
            final String text = help(command);
            final int examples = text.indexOf("\nExamples:\n");
            assertThat(examples).as(command).isPositive();
            assertThat(text.substring(examples).lines().filter(l -> l.startsWith("  aiperf " + command + " ")).count())
                    .as(command).isEqualTo(3);
        }
    }
}
