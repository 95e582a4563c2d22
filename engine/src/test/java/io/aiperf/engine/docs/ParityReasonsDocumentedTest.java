package io.aiperf.engine.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The parity harness names, for each row where upstream and this engine differ, the phrase of the migrating page
 * that explains it ({@code bench/parity/reasons.tsv}): every such phrase must be on that page, so a reason the table
 * cites is one a reader can find.
 */
class ParityReasonsDocumentedTest {
    private static final Path REASONS = Path.of("../bench/parity/reasons.tsv");
    private static final Path PAGE = Path.of("../src-docs/migrating.md");

    @Test
    void everyReasonTheParityTableCitesIsOnTheMigratingPage() throws IOException {
        final List<String[]> lines = Files.readAllLines(REASONS).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .map(l -> l.split("\t", -1))
                .toList();
        assertThat(lines).isNotEmpty();
        final String page = Files.readString(PAGE);
        for (final String[] l : lines) {
            assertThat(l).as("run, verdict, file, key, phrase: %s", String.join(" | ", l)).hasSize(5);
            Pattern.compile(l[3]); // the harness searches the key with it: it must compile
            assertThat(page).as("the phrase of reasons.tsv line '%s'", String.join(" | ", l)).contains(l[4]);
        }
    }
}
