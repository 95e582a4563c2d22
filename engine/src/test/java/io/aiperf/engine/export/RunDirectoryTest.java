package io.aiperf.engine.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a re-run removes: exactly the files the engine wrote, inside the directory, and nothing else. */
class RunDirectoryTest {
    @TempDir
    Path tmp;

    private static void write(final Path file, final String text) {
        AtomicFiles.write(file, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void filesTheUserAddsDuringARunSurviveTheNextRun() throws Exception {
        final Path dir = tmp.resolve("run");
        try (RunDirectory ignored = RunDirectory.claim(dir, null)) {
            write(dir.resolve("profile_export_aiperf.json"), "{}");
            write(dir.resolve("cell_a/profile_export_aiperf.json"), "{}");
            Files.writeString(dir.resolve("gpu.log"), "mine"); // written beside the run, not by the engine
            Files.createDirectories(dir.resolve("server-logs"));
            Files.writeString(dir.resolve("server-logs/vllm.log"), "mine");
            Files.writeString(dir.resolve("cell_a/notes.txt"), "mine");
        }
        try (RunDirectory ignored = RunDirectory.claim(dir, null)) {
            assertThat(dir.resolve("profile_export_aiperf.json")).doesNotExist();
            assertThat(dir.resolve("cell_a/profile_export_aiperf.json")).doesNotExist();
            assertThat(dir.resolve("gpu.log")).hasContent("mine");
            assertThat(dir.resolve("server-logs/vllm.log")).hasContent("mine");
            assertThat(dir.resolve("cell_a/notes.txt")).hasContent("mine");
        }
    }

    @Test
    void theManifestListsEachFileAsItIsBegunSoAKilledRunIsCleanedUp() throws Exception {
        final Path dir = tmp.resolve("run");
        final RunDirectory live = RunDirectory.claim(dir, null);
        try {
            final AtomicFiles.Pending records = AtomicFiles.begin(dir.resolve("cell_b/profile_export.jsonl"));
            records.stream().write('x');
            records.stream().flush();
            // what kill -9 leaves: no close, a hidden temporary file, and the manifest on disk as it is now
            final String manifest = Files.readString(dir.resolve(RunDirectory.MANIFEST_FILE));
            assertThat(manifest).contains("cell_b/profile_export.jsonl");
            try (var files = Files.list(dir.resolve("cell_b"))) {
                assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.endsWith(".tmp"));
            }
            live.close();
            Files.writeString(dir.resolve(RunDirectory.MANIFEST_FILE), manifest);
        } finally {
            live.close();
        }
        try (RunDirectory ignored = RunDirectory.claim(dir, null)) {
            assertThat(dir.resolve("cell_b")).doesNotExist(); // its file, its .tmp, then the emptied directory
        }
    }

    @Test
    void aManifestEntryThroughASymlinkOrWithANulDeletesNothingOutside() throws Exception {
        final Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("precious.txt"), "keep");
        final Path dir = Files.createDirectories(tmp.resolve("run"));
        Files.createSymbolicLink(dir.resolve("lnk"), outside);
        Files.writeString(dir.resolve(RunDirectory.MANIFEST_FILE), "{\"schema_version\":\"2.0\",\"outputs\":"
                + "[\"lnk/precious.txt\",\"lnk\",\"a\\u0000b\",\"../outside/precious.txt\",\"" + outside
                + "/precious.txt\"]}");
        try (RunDirectory ignored = RunDirectory.claim(dir, null)) {
            assertThat(outside.resolve("precious.txt")).hasContent("keep");
            assertThat(dir.resolve("lnk")).doesNotExist(); // the link itself was listed: removed, never followed
        }
    }

    @Test
    void anOlderVersionsManifestRemovesNothingAndAFolderEntryNeverEmptiesAFolder() throws Exception {
        final Path dir = Files.createDirectories(tmp.resolve("run"));
        Files.createDirectories(dir.resolve("notes"));
        Files.writeString(dir.resolve("notes/mine.txt"), "keep");
        Files.writeString(dir.resolve("profile_export_aiperf.json"), "{}");
        // An earlier version's manifest: no schema_version, whole folders listed.
        Files.writeString(dir.resolve(RunDirectory.MANIFEST_FILE), "{\"outputs\": [\"notes\", "
                + "\"profile_export_aiperf.json\"]}");
        try (RunDirectory ignored = RunDirectory.claim(dir, null)) {
            assertThat(dir.resolve("notes/mine.txt")).hasContent("keep");
        }
        // This version's manifest with a folder in it (hand-edited): the folder is left alone too.
        Files.writeString(dir.resolve(RunDirectory.MANIFEST_FILE), "{\"schema_version\":\"2.0\",\"outputs\": "
                + "[\"notes\", \"profile_export_aiperf.json\"]}");
        try (RunDirectory ignored = RunDirectory.claim(dir, null)) {
            assertThat(dir.resolve("notes/mine.txt")).hasContent("keep");
            assertThat(dir.resolve("profile_export_aiperf.json")).doesNotExist();
        }
    }
}
