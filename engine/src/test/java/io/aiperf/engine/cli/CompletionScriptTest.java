package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The completion script, sourced in a real bash, offers the commands, options and values aiperf takes. */
class CompletionScriptTest {
    @TempDir
    static Path tmp;
    private static Path script;

    @BeforeAll
    static void write() throws IOException {
        script = tmp.resolve("aiperf_completion");
        CompletionScript.main(new String[] {script.toString()});
    }

    /** What bash offers for the command line {@code line} (the cursor at its end). */
    private static List<String> candidates(final String line) throws Exception {
        assumeThat(Path.of("/bin/bash")).as("bash is installed").exists();
        final String driver = "source \"$1\"; read -ra COMP_WORDS <<< \"$2\"; [ \"${2: -1}\" = ' ' ] && COMP_WORDS+=('');"
                + " COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=\"$2\"; COMP_POINT=${#2};"
                + " _complete_aiperf; printf '%s\\n' \"${COMPREPLY[@]}\"";
        final Process p = new ProcessBuilder("/bin/bash", "-c", driver, "bash", script.toString(), line)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        final List<String> words = new ArrayList<>();
        for (final String w : out.split("\n")) {
            if (!w.isBlank()) {
                words.add(w.trim());
            }
        }
        return words;
    }

    @Test
    void theFirstWordIsEveryCommand() throws Exception {
        assertThat(candidates("aiperf ")).contains("profile", "config", "mock-server", "gate", "aggregate", "report",
                "compare", "help");
    }

    @Test
    void aProfileOptionIsCompletedFromItsPrefix() throws Exception {
        assertThat(candidates("aiperf profile --end")).containsExactlyInAnyOrder("--endpoint", "--endpoint-type");
    }

    @Test
    void anEndpointTypeIsCompletedFromTheEnginesOwnList() throws Exception {
        final List<String> all = candidates("aiperf profile --endpoint-type ");
        assertThat(all).contains("chat", "completions", "embeddings", "responses", "raw").doesNotContain("grid");
        assertThat(all).hasSize(io.aiperf.engine.config.EndpointType.values().length);
        assertThat(candidates("aiperf profile --endpoint-type ch")).containsExactlyInAnyOrder("chat",
                "chat_embeddings");
        assertThat(candidates("aiperf profile --sweep-type ")).containsExactlyInAnyOrder("grid", "zip");
    }

    @Test
    void aPathOptionIsCompletedWithFileNames() throws Exception {
        final Path dir = Files.createDirectories(tmp.resolve("paths"));
        Files.writeString(dir.resolve("prompts.jsonl"), "{}\n");
        Files.createDirectories(dir.resolve("runs"));
        final String prefix = dir + "/";
        for (final String option : List.of("profile --input-file", "profile --artifact-dir", "profile --ssl-ca-file",
                "profile --tokenizer", "gate --candidate", "gate --rules", "report -o")) {
            assertThat(candidates("aiperf " + option + " " + prefix)).as(option)
                    .contains(prefix + "prompts.jsonl", prefix + "runs");
        }
        assertThat(candidates("aiperf profile --concurrency " + prefix)).as("a number is no path").isEmpty();
    }

    @Test
    void subcommandsOfSubcommandsAreOffered() throws Exception {
        assertThat(candidates("aiperf config ")).contains("validate", "expand");
    }

    /**
     * The generated script keeps each option's values in a variable named after its parameter label: two options
     * with the same label and different values would offer one's values for the other.
     */
    @Test
    void noTwoOptionsShareALabelButNotTheirValues() {
        final List<CommandLine> all = new ArrayList<>();
        collect(Main.commandLine(), all);
        for (final CommandLine cl : all) {
            final Map<String, List<String>> byLabel = new HashMap<>();
            for (final OptionSpec o : cl.getCommandSpec().options()) {
                if (o.completionCandidates() == null || o.typeInfo().isBoolean()) {
                    continue;
                }
                final List<String> values = new ArrayList<>();
                o.completionCandidates().forEach(values::add);
                final List<String> before = byLabel.putIfAbsent(o.paramLabel(), values);
                assertThat(before == null || before.equals(values))
                        .as(cl.getCommandName() + " " + o.longestName() + " " + o.paramLabel()).isTrue();
            }
        }
        assertThat(all).hasSizeGreaterThan(8);
    }

    private static void collect(final CommandLine cl, final List<CommandLine> into) {
        into.add(cl);
        cl.getSubcommands().values().forEach(c -> collect(c, into));
    }
}
