package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's {@code --help}, word for word, against a golden file under src/test/resources/help: the options
 * are declared once (the picocli fields with their {@code @Yaml} rows), and this pins what that declaration prints.
 */
class HelpGoldenTest {
    private static final Path GOLDEN = Path.of("src/test/resources/help");
    private static final Path ACTUAL = Path.of("target/help-actual");
    private static final String REGENERATE = "regenerate the golden files after an intended change: mvn -B -o -pl "
            + "engine test -Dmaven.gitcommitid.skip=true -Djacoco.skip=true -Dtest=HelpGoldenTest "
            + "-Daiperf.help.regenerate=true, then review git diff engine/src/test/resources/help";

    /** Every command and subcommand, by its words after {@code aiperf} joined with '-' ("aiperf" for the root). */
    static Map<String, String> helps() {
        final Map<String, String> out = new LinkedHashMap<>();
        collect(Main.commandLine(), "aiperf", out);
        return out;
    }

    private static void collect(final CommandLine command, final String name, final Map<String, String> out) {
        final StringWriter text = new StringWriter();
        command.usage(new PrintWriter(text, true));
        out.put(name, text.toString().lines().map(String::stripTrailing).reduce("", (a, l) -> a + l + "\n"));
        command.getSubcommands().forEach((sub, cl) -> {
            if (!sub.equals("help") && cl.getCommandName().equals(sub)) { // aliases once, under the command's name
                collect(cl, name + "-" + sub, out);
            }
        });
    }

    @Test
    void everyCommandsHelpIsItsGoldenFile() throws IOException {
        final Map<String, String> helps = helps();
        if (Boolean.getBoolean("aiperf.help.regenerate")) {
            Files.createDirectories(GOLDEN);
            try (var old = Files.list(GOLDEN)) {
                for (final Path p : old.toList()) {
                    Files.delete(p);
                }
            }
            for (final Map.Entry<String, String> e : helps.entrySet()) {
                Files.writeString(GOLDEN.resolve(e.getKey() + ".txt"), e.getValue());
            }
        }
        final List<String> files = new ArrayList<>();
        try (var listed = Files.list(GOLDEN)) {
            listed.forEach(p -> files.add(p.getFileName().toString().replaceFirst("\\.txt$", "")));
        }
        assertThat(files).as("one golden file per command (" + REGENERATE + ")")
                .containsExactlyInAnyOrderElementsOf(helps.keySet());
        final List<String> differ = new ArrayList<>();
        for (final Map.Entry<String, String> e : helps.entrySet()) {
            if (!e.getValue().equals(Files.readString(GOLDEN.resolve(e.getKey() + ".txt")))) {
                Files.createDirectories(ACTUAL);
                Files.writeString(ACTUAL.resolve(e.getKey() + ".txt"), e.getValue());
                differ.add(e.getKey());
            }
        }
        assertThat(differ).as("commands whose help differs from " + GOLDEN + "/<command>.txt (the real help is in "
                + ACTUAL + "; " + REGENERATE + ")").isEmpty();
        assertThat(helps).containsKeys("aiperf-profile", "aiperf-compare", "aiperf-report", "aiperf-aggregate",
                "aiperf-gate", "aiperf-mock-server", "aiperf-config");
    }
}
