package io.aiperf.engine.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cell log is written where it belongs and cannot carry a server's escape sequences. */
class RunLogTest {
    @TempDir
    Path tmp;

    @Test
    void aPlantedSymlinkIsReplacedNotAppendedThroughAndEscapesAreNeutralised() throws Exception {
        final Path victim = tmp.resolve("victim.txt");
        Files.writeString(victim, "untouched");
        final Path otherDir = Files.createDirectories(tmp.resolve("elsewhere"));
        final Path cellA = Files.createDirectories(tmp.resolve("a/logs"));
        Files.createSymbolicLink(cellA.resolve("aiperf.log"), victim);
        final Path cellB = Files.createDirectories(tmp.resolve("b"));
        Files.createSymbolicLink(cellB.resolve("logs"), otherDir);
        final RunLog log = new RunLog(new PrintStream(new ByteArrayOutputStream(), true), RunLog.Level.INFO);
        for (final Path cell : new Path[] {tmp.resolve("a"), cellB}) {
            log.openFile(cell, out -> out);
            log.info("server said \u001b]0;pwned\u0007\u001b[2J done");
            log.closeFile();
            final Path file = cell.resolve("logs/aiperf.log");
            assertThat(Files.isSymbolicLink(file) || Files.isSymbolicLink(file.getParent())).isFalse();
            assertThat(Files.readString(file)).contains("server said \\x1B]0;pwned\\x07\\x1B[2J done")
                    .doesNotContain("\u001b");
        }
        assertThat(victim).hasContent("untouched");
        try (var files = Files.list(otherDir)) {
            assertThat(files.toList()).isEmpty();
        }
    }
}
