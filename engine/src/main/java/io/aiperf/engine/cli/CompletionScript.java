package io.aiperf.engine.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Writes the bash and zsh completion script (zsh through its bashcompinit) from the command tree {@code aiperf}
 * runs with: every command, option and enum value, and file names after an option that takes a path. Generated from
 * {@link Main#commandLine()}, not from Main's annotation, because the subcommands are added there (the build runs
 * this at package time).
 */
public final class CompletionScript {
    /**
     * The parameter labels of options that take a path (a file, a directory, a run directory, rules, a trace) or a
     * name that may be one ({@code --tokenizer NAME_OR_PATH}): picocli completes file names only for options typed
     * {@code File} or {@code Path}, and most of ours are strings, so their label, declared once with the option, says
     * it.
     */
    private static final Pattern PATH_LABEL = Pattern.compile(
            "<?(FILE|DIR|PATH|NAME_OR_PATH|RULES|RUN|TRACE|[A-Z_]*_(FILE|DIR|PATH))>?");

    private CompletionScript() {
    }

    /** The script's text. */
    public static String text() {
        final CommandLine root = Main.commandLine();
        String script = AutoComplete.bash("aiperf", root);
        for (final String name : pathOptions(root)) {
            script = completeFiles(script, name);
        }
        return script;
    }

    /** The longest name of every option, in any command, whose label says it takes a path. */
    static Set<String> pathOptions(final CommandLine root) {
        final Set<String> out = new LinkedHashSet<>();
        collect(root, out);
        return out;
    }

    private static void collect(final CommandLine cl, final Set<String> out) {
        for (final OptionSpec o : cl.getCommandSpec().options()) {
            if (o.arity().max() > 0 && PATH_LABEL.matcher(o.paramLabel()).matches()) {
                out.add(o.longestName());
            }
        }
        cl.getSubcommands().values().forEach(c -> collect(c, out));
    }

    /**
     * Turns the case branch picocli writes for an option that completes nothing ({@code return}) into one that
     * completes file names, as it writes for a {@code Path} option.
     */
    private static String completeFiles(final String script, final String option) {
        final Pattern branch = Pattern.compile("(\\n(\\s+)(?:'[^'\\n]+'\\|)*'" + Pattern.quote(option)
                + "'(?:\\|'[^'\\n]+')*\\)\\n)(\\s+)return\\n");
        final Matcher m = branch.matcher(script);
        final StringBuilder sb = new StringBuilder();
        while (m.find()) {
            final String in = m.group(3);
            m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + in + "local IFS=$'\\n'\n" + in
                    + "type compopt &>/dev/null && compopt -o filenames\n" + in
                    + "COMPREPLY=( $( compgen -f -- \"${curr_word}\" ) ) # files\n" + in + "return $?\n"));
        }
        m.appendTail(sb);
        return sb.toString();
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
