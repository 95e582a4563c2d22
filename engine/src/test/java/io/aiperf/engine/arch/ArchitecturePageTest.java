package io.aiperf.engine.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * src-docs/architecture.md is the map: every package of the engine has its row in the table of packages and its
 * place in the layering picture, so a new package cannot be left off it.
 */
class ArchitecturePageTest {
    private static final Path PAGE = Path.of(System.getProperty("aiperf.docs.dir", "../src-docs"), "architecture.md");
    private static final Path PACKAGES = Path.of("src/main/java/io/aiperf/engine");

    @Test
    void everyPackageHasItsRowAndItsPlaceInThePicture() throws IOException {
        final String page = Files.readString(PAGE);
        final String picture = page.substring(page.indexOf("## Dependencies and data flow"));
        final int fence = picture.indexOf("```") + 3;
        final String layers = picture.substring(fence, picture.indexOf("```", fence));
        final List<String> packages;
        try (Stream<Path> dirs = Files.list(PACKAGES)) {
            packages = dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).sorted().toList();
        }
        assertThat(packages).contains("config", "summary", "tracestats");
        for (final String p : packages) {
            assertThat(page).as("the row of package " + p).contains("| `" + p + "` |");
            assertThat(Pattern.compile("(?m)^ (\\S+ +)*" + p + "( |$)").matcher(layers).find())
                    .as("package " + p + " in the layering picture").isTrue();
        }
    }
}
