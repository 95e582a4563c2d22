package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code aiperf aggregate} writes only under {@code --output-dir}, reads only a cell's own files, and a second
 * merge into the same directory replaces the first.
 */
class AggregateConfinementEndToEndTest {
    @TempDir
    Path tmp;
    Path sweep;

    @BeforeEach
    void sweep() throws Exception {
        sweep = tmp.resolve("sweep");
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            assertThat(Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--concurrency", "1,2", "--request-count",
                    "4", "--isl", "8", "--osl", "2", "--artifact-dir", sweep.toString()).exitCode()).isZero();
        }
    }

    private List<Path> cells(final Path dir) throws Exception {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> p.getFileName().toString().equals("cell_outcome.json")).map(Path::getParent)
                    .filter(p -> !p.equals(dir)).sorted().toList();
        }
    }

    /** A copy of one cell whose outcome file a hostile hand edited. */
    private Path hostileCell(final String name, final java.util.function.UnaryOperator<String> edit) throws Exception {
        final Path cell = cells(sweep).get(0);
        final Path copy = Files.createDirectories(tmp.resolve(name).resolve("cell"));
        try (Stream<Path> files = Files.list(cell)) {
            for (final Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        final Path outcome = copy.resolve("cell_outcome.json");
        Files.writeString(outcome, edit.apply(Files.readString(outcome)));
        return copy.getParent();
    }

    private static String pathOf(final String outcomeJson) {
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"path\"\\s*:\\s*\"([^\"]*)\"").matcher(outcomeJson);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    private void refused(final Path input, final Path out, final String reason) throws Exception {
        final Runs.Result r = Runs.aiperf("aggregate", input.toString(), "--output-dir", out.toString());
        assertThat(r.exitCode()).as(r.all()).isEqualTo(2);
        assertThat(r.err().lines().filter(l -> l.startsWith("error:")).toList()).hasSize(1); // one line
        assertThat(r.err()).doesNotContain("\tat ");
        assertThat(r.err()).contains(reason);
        if (Files.exists(out)) {
            try (Stream<Path> files = Files.list(out)) {
                assertThat(files.toList()).as("nothing written").isEmpty();
            }
        }
    }

    @Test
    void aCellPathThatLeavesTheOutputDirIsRefusedBeforeAnyWrite() throws Exception {
        final Path traversal = hostileCell("traversal", s -> s.replace("\"path\" : \"" + pathOf(s) + "\"",
                "\"path\" : \"../escaped\"").replace("\"path\":\"" + pathOf(s) + "\"", "\"path\":\"../escaped\""));
        assertThat(Files.readString(traversal.resolve("cell/cell_outcome.json"))).contains("../escaped");
        refused(traversal, tmp.resolve("out1"), "leaves --output-dir");
        assertThat(tmp.resolve("escaped")).doesNotExist();

        final Path target = tmp.resolve("absolute-target");
        final Path absolute = hostileCell("absolute", s -> s.replace("\"" + pathOf(s) + "\"", "\"" + target + "\""));
        refused(absolute, tmp.resolve("out2"), "leaves --output-dir");
        assertThat(target).doesNotExist();
    }

    @Test
    void aSymlinkInsideACellIsNotFollowed() throws Exception {
        final Path secret = tmp.resolve("secret.txt");
        Files.writeString(secret, "top secret");
        final Path linked = hostileCell("linked", s -> s);
        Files.createSymbolicLink(linked.resolve("cell/notes.json"), secret);
        refused(linked, tmp.resolve("out3"), "notes.json is a symbolic link");

        final Path outcomeLink = hostileCell("outcome-link", s -> s);
        final Path elsewhere = tmp.resolve("elsewhere.json");
        Files.move(outcomeLink.resolve("cell/cell_outcome.json"), elsewhere);
        Files.createSymbolicLink(outcomeLink.resolve("cell/cell_outcome.json"), elsewhere);
        refused(outcomeLink, tmp.resolve("out4"), "resolves outside");
    }

    @Test
    void reAggregatingIntoTheSameDirectoryDropsTheOldCells() throws Exception {
        final Path merged = tmp.resolve("merged");
        assertThat(Runs.aiperf("aggregate", sweep.toString(), "--output-dir", merged.toString()).exitCode()).isZero();
        assertThat(cells(merged)).hasSize(2);
        final Path one = hostileCell("one", s -> s); // an honest copy of one cell
        assertThat(Runs.aiperf("aggregate", one.toString(), "--output-dir", merged.toString()).exitCode()).isZero();
        assertThat(cells(merged)).hasSize(1);
        assertThat(Files.readString(merged.resolve("profile_export_aiperf_sweep.json").getParent()
                .resolve("sweep_aggregate/profile_export_aiperf_sweep.json")).replace(" ", ""))
                .contains("\"num_combinations\":1");
    }
}
