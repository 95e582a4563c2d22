package io.aiperf.engine.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.cli.ArchiveReadme;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the installable archive's Markdown resolves inside the archive: its README (as
 * {@link ArchiveReadme} rewrites it) and {@code docs/} (src-docs as shipped, see src/assembly/dist.xml).
 */
class ArchiveLinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s#]+)(?:#[^)\\s]*)?\\)");

    private static Path root() {
        return Path.of(System.getProperty("aiperf.docs.dir", "../src-docs")).getParent();
    }

    /** The archive's Markdown files by their path in it, with their text as shipped. */
    private static Map<String, String> archive() throws IOException {
        final Map<String, String> files = new LinkedHashMap<>();
        final Path src = root().resolve("src-docs");
        try (Stream<Path> docs = Files.walk(src)) {
            for (final Path p : docs.filter(Files::isRegularFile).sorted().toList()) {
                files.put("docs/" + src.relativize(p).toString().replace('\\', '/'),
                        p.toString().endsWith(".md") ? Files.readString(p) : ""); // other files: only there
            }
        }
        files.put("README.md", ArchiveReadme.rewrite(Files.readString(root().resolve("README.md")),
                Set.copyOf(files.keySet())));
        return files;
    }

    @Test
    void theArchivesReadmeStartsWithARunNotABuild() throws IOException {
        final String readme = archive().get("README.md");
        final int start = readme.indexOf("```bash\n") + 8;
        final String firstBlock = readme.substring(start, readme.indexOf("\n```", start));
        assertThat(firstBlock).startsWith("bin/aiperf profile --mock").doesNotContain("mvn");
        assertThat(readme.indexOf("This archive is built")).isLessThan(readme.indexOf("mvn -B"));
    }

    @Test
    void everyRelativeLinkResolvesInsideTheArchive() throws IOException {
        final Map<String, String> files = archive();
        final List<String> broken = new ArrayList<>();
        files.forEach((name, text) -> {
            final Matcher m = LINK.matcher(text);
            while (m.find()) {
                final String target = m.group(1);
                if (target.contains(":")) {
                    continue; // a URL
                }
                final Path resolved = Path.of(name).resolveSibling(target).normalize();
                final String key = resolved.toString().replace('\\', '/');
                if (!files.containsKey(key)) {
                    broken.add(name + " -> " + target);
                }
            }
        });
        assertThat(broken).as("links that do not resolve in the archive").isEmpty();
        assertThat(files.get("README.md")).contains("](docs/getting-started.md)").doesNotContain("](src-docs/");
    }

    @Test
    void aLinkToAFileTheArchiveLacksBecomesText() {
        final String out = ArchiveReadme.rewrite("see [results](bench/RESULTS.md) and [cli](src-docs/cli.md#exit-codes)"
                + " and [site](https://example.org/x) and [bench/RESULTS.md](bench/RESULTS.md)", Set.of("docs/cli.md"));
        assertThat(out).isEqualTo("see results (`bench/RESULTS.md` in the source tree) and "
                + "[cli](docs/cli.md#exit-codes) and [site](https://example.org/x) and `bench/RESULTS.md` (in the "
                + "source tree)");
    }
}
