package io.aiperf.engine.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.AutoComplete;

/**
 * Writes the bash and zsh completion script (zsh through its bashcompinit) from the command tree {@code aiperf}
 * runs with: every command, option and enum value. Generated from {@link Main#commandLine()}, not from Main's
 * annotation, because the subcommands are added there (the build runs this at package time).
 */
public final class CompletionScript {
    private CompletionScript() {
    }

    /** The script's text. */
    public static String text() {
        return AutoComplete.bash("aiperf", Main.commandLine());
    }

    /** {@code args[0]}: where to write the script. */
    public static void main(final String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: CompletionScript FILE");
        }
        final Path out = Path.of(args[0]);
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.writeString(out, text(), StandardCharsets.UTF_8);
    }
}
