package io.aiperf.engine.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exports are written whole, and with the mode the umask gives any new file, not always 0600. */
class AtomicFilesTest {
    @TempDir
    Path tmp;

    @Test
    void aWrittenFileHasTheModeOfAnyNewFileHere() throws Exception {
        Assumptions.assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
        final Set<PosixFilePermission> umasked = Files.getPosixFilePermissions(Files.createFile(tmp.resolve("ref")));
        final Path bytes = tmp.resolve("report.html");
        AtomicFiles.write(bytes, "<html/>".getBytes(StandardCharsets.UTF_8));
        final Path streamed = tmp.resolve("profile_export.jsonl");
        final AtomicFiles.Pending p = AtomicFiles.begin(streamed);
        p.stream().write("{}\n".getBytes(StandardCharsets.UTF_8));
        p.commit();
        // under the usual umask 022 that is 0644, where createTempFile made every export 0600
        assertThat(Files.getPosixFilePermissions(bytes)).isEqualTo(umasked);
        assertThat(Files.getPosixFilePermissions(streamed)).isEqualTo(umasked);
        assertThat(Files.readString(bytes)).isEqualTo("<html/>");
        try (var left = Files.list(tmp)) {
            assertThat(left.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("ref", "report.html",
                    "profile_export.jsonl"); // no temporary file left behind
        }
    }
}
