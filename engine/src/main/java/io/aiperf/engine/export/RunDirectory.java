package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.aiperf.engine.config.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * An artifact directory owned by one run at a time (src-docs/exports.md): a lock file keeps a second live run
 * out, and a manifest lists what the run wrote, so the next run into the same directory first removes exactly
 * that (stale gate reports and cells of an earlier sweep can never mix with new results) and never touches other
 * files. Not thread-safe: one per run.
 */
public final class RunDirectory implements AutoCloseable {
    public static final String LOCK_FILE = ".aiperf.lock";
    public static final String MANIFEST_FILE = ".aiperf-manifest.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path dir;
    private final FileChannel channel;
    private final FileLock lock;
    private final Set<String> before;
    private final Set<String> kept;

    private RunDirectory(final Path dir, final FileChannel channel, final FileLock lock, final Set<String> before,
                         final Set<String> kept) {
        this.dir = dir;
        this.channel = channel;
        this.lock = lock;
        this.before = before;
        this.kept = kept;
    }

    /**
     * Locks the directory and clears the previous run's outputs: all of them, or, for a run of some cells, only
     * the cells it is about to write again (the others stay, to be merged later).
     *
     * @param replaced for a run of some cells, their paths relative to the directory; null for a whole run
     * @throws ConfigException when another run holds the directory
     */
    public static RunDirectory claim(final Path dir, final List<String> replaced) {
        try {
            Files.createDirectories(dir);
            final FileChannel channel = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                throw new ConfigException("--artifact-dir", dir.toAbsolutePath() + " is in use by another aiperf run "
                        + "(" + LOCK_FILE + " is locked); wait for it to finish or choose another directory");
            }
            final Set<String> previous = manifest(dir);
            final Set<String> kept = new LinkedHashSet<>();
            if (replaced == null) {
                for (final String entry : previous) {
                    delete(dir.resolve(entry));
                }
            } else {
                for (final String entry : replaced) {
                    delete(dir.resolve(entry));
                }
                delete(dir.resolve("run_outcome.json"));
                previous.stream().filter(e -> Files.exists(dir.resolve(e))).forEach(kept::add);
            }
            Files.deleteIfExists(dir.resolve(MANIFEST_FILE));
            return new RunDirectory(dir, channel, lock, entries(dir), kept);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir.toAbsolutePath() + ": " + e.getMessage(), e);
        }
    }

    /** Writes the manifest of what this run added, and releases the directory. */
    @Override
    public void close() {
        try {
            final Set<String> written = new LinkedHashSet<>(kept);
            entries(dir).stream().filter(e -> !before.contains(e)).forEach(written::add);
            final ArrayNode list = JSON.createArrayNode();
            written.forEach(list::add);
            AtomicFiles.write(dir.resolve(MANIFEST_FILE), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(
                    JSON.createObjectNode().put("schema_version", "1.0").set("outputs", list)));
        } catch (IOException | UncheckedIOException e) {
            // the results are written; only the next run's cleanup loses its list
        } finally {
            try {
                lock.release();
                channel.close();
                Files.deleteIfExists(dir.resolve(LOCK_FILE));
            } catch (IOException ignored) {
                // the lock ends with the process anyway
            }
        }
    }

    private static Set<String> manifest(final Path dir) throws IOException {
        final Set<String> out = new LinkedHashSet<>();
        final Path file = dir.resolve(MANIFEST_FILE);
        if (!Files.isRegularFile(file)) {
            return out;
        }
        final JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException unreadable) {
            return out; // a damaged manifest removes nothing
        }
        root.path("outputs").forEach(e -> {
            final String entry = e.asText();
            // only plain relative names inside the directory; never "..", never absolute
            if (!entry.isBlank() && !entry.startsWith("/") && !entry.startsWith(".") && !entry.contains("..")) {
                out.add(entry);
            }
        });
        return out;
    }

    /** The top-level entries of the directory, without the lock and manifest. */
    private static Set<String> entries(final Path dir) throws IOException {
        final Set<String> out = new LinkedHashSet<>();
        try (Stream<Path> list = Files.list(dir)) {
            list.map(p -> p.getFileName().toString()).filter(n -> !n.equals(LOCK_FILE) && !n.equals(MANIFEST_FILE))
                    .sorted().forEach(out::add);
        }
        return out;
    }

    private static void delete(final Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        final List<Path> all = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(path)) {
            walk.forEach(all::add);
        }
        all.sort(Comparator.reverseOrder());
        for (final Path p : all) {
            Files.deleteIfExists(p);
        }
    }
}
