package io.aiperf.engine.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The README as the installable archive ships it: its links into {@code src-docs/} point to the archive's
 * {@code docs/}, and a link to a file the archive does not hold (the benchmark results) becomes plain text, so
 * every link of the unpacked archive resolves inside it. The build runs this at package time.
 */
public final class ArchiveReadme {
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]+)\\]\\(([^)\\s#]*)(#[^)\\s]*)?\\)");

    private ArchiveReadme() {
    }

    /**
     * @param shipped the archive's files, relative to its root ({@code docs/cli.md}, ...)
     */
    public static String rewrite(final String readme, final Set<String> shipped) {
        return links(archiveFirst(readme), shipped);
    }

    /** The source README's first command: build, then run ({@code mvn ... && bin/aiperf profile ...}). */
    private static final Pattern BUILD_THEN_RUN = Pattern.compile("```bash\n(mvn [^\n]*?) && (bin/aiperf [^\n]*)\n```");

    /**
     * The README opens with the commands of the source tree (build, then test); the archive is built already, so
     * its README first says so and gives the same first run without the build.
     */
    static String archiveFirst(final String readme) {
        final Matcher m = BUILD_THEN_RUN.matcher(readme);
        final int title = readme.indexOf('\n');
        if (!m.find() || title < 0 || !readme.startsWith("# ")) {
            return readme;
        }
        return readme.substring(0, title + 1) + "\nThis archive is built: start with\n\n```bash\n" + m.group(2)
                + "\n```\n\nThe `mvn` commands below build and test the source tree; the archive needs only Java 17 "
                + "on PATH.\n" + readme.substring(title + 1);
    }

    private static String links(final String readme, final Set<String> shipped) {
        final Matcher m = LINK.matcher(readme);
        final StringBuilder out = new StringBuilder();
        while (m.find()) {
            final String target = m.group(2);
            final String replacement;
            if (target.isEmpty() || target.contains(":")) {
                replacement = m.group(); // an anchor on the page, or a URL
            } else {
                final String inArchive = target.startsWith("src-docs/") ? "docs/" + target.substring(9) : target;
                replacement = shipped.contains(inArchive)
                        ? "[" + m.group(1) + "](" + inArchive + (m.group(3) == null ? "" : m.group(3)) + ")"
                        : m.group(1).replace("`", "").equals(target) ? "`" + target + "` (in the source tree)"
                        : m.group(1) + " (`" + target + "` in the source tree)";
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** {@code args}: the README, the docs directory the archive ships as {@code docs/}, the file to write. */
    public static void main(final String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: ArchiveReadme README DOCS_DIR OUT");
        }
        final Set<String> shipped;
        final Path docsDir = Path.of(args[1]);
        try (Stream<Path> docs = Files.walk(docsDir)) {
            shipped = docs.filter(Files::isRegularFile)
                    .map(p -> "docs/" + docsDir.relativize(p).toString().replace('\\', '/')).collect(Collectors.toSet());
        }
        final Path out = Path.of(args[2]);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, rewrite(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8), shipped),
                StandardCharsets.UTF_8);
    }
}
