package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.summary.ExportFiles;
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
 * out, and a manifest lists every file the engine wrote there (recorded as each is begun, so a run killed with
 * kill -9 leaves a true list), so the next run into the same directory first removes exactly those (stale gate
 * reports and cells of an earlier sweep can never mix with new results) and never touches files the engine did
 * not write, whoever put them there. Deletion stays inside the directory: an entry reached through a symbolic
 * link that leaves it is skipped. Thread-safe: writers on any thread report their files.
 */
public final class RunDirectory implements AutoCloseable {
    public static final String LOCK_FILE = ".aiperf.lock";
    public static final String MANIFEST_FILE = ExportFiles.MANIFEST;
    /** The manifest's format: one entry per file this version wrote. */
    private static final String MANIFEST_VERSION = "2.0";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<RunDirectory> ACTIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Path dir;
    private final FileChannel channel;
    private final FileLock lock;
    private final Set<String> written;

    private RunDirectory(final Path dir, final FileChannel channel, final FileLock lock, final Set<String> kept) {
        this.dir = dir.toAbsolutePath().normalize();
        this.channel = channel;
        this.lock = lock;
        this.written = new LinkedHashSet<>(kept);
    }

    /**
     * Locks the directory and clears the previous run's outputs: all of them, or, for a run of some cells, only
     * the cells it is about to write again (the others stay, to be merged later).
     *
     * @param replaced for a run of some cells, their paths relative to the directory; null for a whole run
     *                 (an empty list keeps everything the previous runs wrote)
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
            if (!Files.exists(dir.resolve(LOCK_FILE))) {
                // The run that held it finished between our open and our lock, and removed it: start again.
                lock.release();
                channel.close();
                return claim(dir, replaced);
            }
            final Set<String> kept = new LinkedHashSet<>();
            final Path real = dir.toRealPath();
            for (final String entry : manifest(dir)) {
                if (replaced == null || entry.equals(ExportFiles.RUN_OUTCOME)
                        || replaced.stream().anyMatch(r -> entry.equals(r) || entry.startsWith(r + "/"))) {
                    delete(dir, real, entry);
                } else if (Files.exists(dir.resolve(entry), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    kept.add(entry);
                }
            }
            final RunDirectory claimed = new RunDirectory(dir, channel, lock, kept);
            claimed.save();
            ACTIVE.add(claimed);
            return claimed;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir.toAbsolutePath() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Records that the engine is writing {@code file}, in the manifest of every claimed directory that holds it.
     * Called before the first byte, so a killed run's partial files are listed too.
     */
    public static void wrote(final Path file) {
        if (ACTIVE.isEmpty()) {
            return;
        }
        final Path abs = file.toAbsolutePath().normalize();
        for (final RunDirectory d : ACTIVE) {
            if (abs.startsWith(d.dir) && !abs.equals(d.dir)) {
                d.add(d.dir.relativize(abs));
            }
        }
    }

    /**
     * Adds files written by a separate command (a later {@code aiperf gate}) to a finished run's manifest, so the
     * next run into the directory removes them as well. No manifest (not a run directory): nothing to do.
     */
    public static void adopt(final Path dir, final List<Path> files) {
        final Path abs = dir.toAbsolutePath().normalize();
        if (ACTIVE.stream().anyMatch(d -> abs.startsWith(d.dir)) || !Files.isRegularFile(dir.resolve(MANIFEST_FILE))) {
            return; // a live run records its own files
        }
        try {
            final Set<String> entries = manifest(dir);
            for (final Path f : files) {
                entries.add(abs.relativize(f.toAbsolutePath().normalize()).toString().replace('\\', '/'));
            }
            write(dir, entries);
        } catch (IOException | UncheckedIOException e) {
            // the files are written; only the next run's cleanup misses them
        }
    }

    private synchronized void add(final Path relative) {
        final String entry = relative.toString().replace('\\', '/');
        final String name = relative.getFileName().toString();
        if (name.equals(MANIFEST_FILE) || name.equals(LOCK_FILE) || !written.add(entry)) {
            return;
        }
        save();
    }

    private synchronized void save() {
        try {
            write(dir, written);
        } catch (IOException | UncheckedIOException e) {
            // the results are written; only the next run's cleanup loses its list
        }
    }

    private static void write(final Path dir, final Set<String> entries) throws IOException {
        final ArrayNode list = JSON.createArrayNode();
        entries.forEach(list::add);
        AtomicFiles.write(dir.resolve(MANIFEST_FILE), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(
                JSON.createObjectNode().put("schema_version", MANIFEST_VERSION).set("outputs", list)));
    }

    /** Whether this process's own run holds {@code dir}: what it reads there, it finished writing itself. */
    public static boolean isOwnedHere(final Path dir) {
        final Path abs = dir.toAbsolutePath().normalize();
        return ACTIVE.stream().anyMatch(d -> d.dir.equals(abs));
    }

    /** Whether a live run of another process holds {@code dir} now. */
    public static boolean isHeld(final Path dir) {
        final Path abs = dir.toAbsolutePath().normalize();
        try (FileChannel channel = FileChannel.open(abs.resolve(LOCK_FILE), StandardOpenOption.WRITE)) {
            final FileLock probe = channel.tryLock();
            if (probe == null) {
                return true;
            }
            probe.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Writes the final manifest of what this run wrote, and releases the directory. */
    @Override
    public void close() {
        ACTIVE.remove(this);
        save();
        try {
            // Removed while still held: a run that has the lock file has not finished (the gate reads it so), and a
            // new run that opened the old file in between finds it gone and takes a new one.
            Files.deleteIfExists(dir.resolve(LOCK_FILE));
            lock.release();
            channel.close();
        } catch (IOException ignored) {
            // the lock ends with the process anyway
        }
    }

    private static Set<String> manifest(final Path dir) throws IOException {
        final Set<String> out = new LinkedHashSet<>();
        final Path file = dir.resolve(MANIFEST_FILE);
        if (!Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        final JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException unreadable) {
            return out; // a damaged manifest removes nothing
        }
        if (!MANIFEST_VERSION.equals(root.path("schema_version").asText())) {
            // An older version's manifest named whole folders, some the user's own: nothing it lists is removed.
            return out;
        }
        root.path("outputs").forEach(e -> {
            final String entry = e.asText();
            if (plain(entry)) {
                out.add(entry);
            }
        });
        return out;
    }

    /**
     * Only relative names inside the directory: never absolute, never "..", no NUL, and no hidden segment but the
     * engine's own results-ready marker.
     */
    private static boolean plain(final String entry) {
        if (entry.isBlank() || entry.startsWith("/") || entry.indexOf('\0') >= 0 || entry.contains("\\")) {
            return false;
        }
        final String[] segs = entry.split("/");
        for (int i = 0; i < segs.length; i++) {
            final boolean ownHiddenFile = i == segs.length - 1 && segs[i].equals(ExportFiles.READY_MARKER);
            if (segs[i].isEmpty() || (segs[i].startsWith(".") && !ownHiddenFile)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Deletes one manifest entry, the temporary files an interrupted write of it left, and the directories that
     * deleting it emptied. A symbolic link is removed, never followed; an entry whose parent resolves outside the
     * directory (a planted link) is left alone.
     */
    private static void delete(final Path dir, final Path realDir, final String entry) throws IOException {
        final Path path;
        try {
            path = dir.resolve(entry);
        } catch (java.nio.file.InvalidPathException e) {
            return;
        }
        final Path parent = path.getParent();
        if (!Files.isDirectory(parent) || !parent.toRealPath().startsWith(realDir)) {
            return;
        }
        if (Files.isDirectory(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return; // the engine lists files, never folders: a folder's contents are not its to remove
        }
        Files.deleteIfExists(path);
        final String tmpPrefix = "." + path.getFileName();
        try (Stream<Path> siblings = Files.list(parent)) {
            for (final Path s : siblings.filter(s -> s.getFileName().toString().startsWith(tmpPrefix)
                    && s.getFileName().toString().endsWith(".tmp")).toList()) {
                Files.deleteIfExists(s);
            }
        }
        for (Path p = parent; !p.equals(dir) && p.startsWith(dir); p = p.getParent()) {
            try (Stream<Path> rest = Files.list(p)) {
                if (rest.findAny().isPresent()) {
                    break;
                }
            }
            Files.delete(p);
        }
    }
}
