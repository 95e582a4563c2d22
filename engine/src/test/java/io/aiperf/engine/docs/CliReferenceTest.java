package io.aiperf.engine.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Every option of every command is documented in src-docs/cli.md. */
class CliReferenceTest {
    private static Path docs() {
        return Path.of(System.getProperty("aiperf.docs.dir", "../src-docs"));
    }

    private static void collect(final CommandLine cl, final List<String> into) {
        for (final OptionSpec o : cl.getCommandSpec().options()) {
            into.addAll(List.of(o.names()));
        }
        cl.getSubcommands().values().forEach(sub -> collect(sub, into));
    }

    @Test
    void everyFlagIsInTheReference() throws Exception {
        final String reference = Files.readString(docs().resolve("cli.md"));
        final List<String> flags = new ArrayList<>();
        collect(Main.commandLine(), flags);
        assertThat(flags).contains("--reset-kv-cache", "--server-profiler-timeout-seconds", "--warmup-request-count");
        final List<String> missing = flags.stream().filter(f -> !reference.contains(f)).toList();
        assertThat(missing).as("flags missing from src-docs/cli.md").isEmpty();
    }

    @Test
    void controlHookFlagsAreInTheHooksPage() throws Exception {
        final String page = Files.readString(docs().resolve("control-hooks.md"));
        for (final String f : List.of("--reset-kv-cache", "--reset-kv-cache-path", "--reset-kv-cache-timeout-seconds",
                "--reset-kv-cache-max-retry-seconds", "--server-profiler", "--server-profiler-start-path",
                "--server-profiler-stop-path", "--server-profiler-timeout-seconds")) {
            assertThat(page).contains("`" + f + "`");
        }
    }
}
