package io.aiperf.engine.gate;

import io.aiperf.engine.export.RunDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Runs that cannot be read as finished: their directory, or one around or inside it, still has the lock file a run
 * removes as it ends. Held, the run is still writing; left, it was killed (kill -9, a lost machine) and its cells are
 * whatever it got to. Either way its summaries are partial and never judged. A run of this process reading what it
 * finished itself (compare gating its sides) is the exception. The gate refuses such a run; the report says so.
 */
public final class UnfinishedRuns {
    private UnfinishedRuns() {
    }

    /** Folders below a source looked at for a run's lock: a sweep's cells and trials are a few levels deep. */
    private static final int MAX_DEPTH = 6;

    /** A run that did not finish: its folder, and whether it still runs (else it was killed). */
    public record Unfinished(Path dir, boolean running) {
        /** What it is, for any reader: "the run in DIR is still running there (...): its results are partial". */
        public String describe() {
            return running
                    ? "the run in " + dir + " is still running there (" + RunDirectory.LOCK_FILE + " is held): its "
                            + "results are partial"
                    : "the run in " + dir + " ended without finishing (killed?): its results are partial";
        }

        /** What to do about it before reading it as a result. */
        public String advice(final String reading) {
            return running ? reading + " it once it has finished"
                    : "run it again, or, if you know it finished, delete " + dir.resolve(RunDirectory.LOCK_FILE);
        }
    }

    /**
     * Why the run that wrote {@code source} cannot be judged, or null when it finished.
     */
    static String why(final Path source) {
        final Unfinished u = find(source);
        return u == null ? null : u.describe() + " and are never judged; " + u.advice("gate");
    }

    /**
     * The unfinished run that wrote {@code source}, or null when it finished. The folders looked at are the source,
     * those below it, and those above it up to the run's root (the nearest with a manifest): never higher, so a lock
     * left long ago in a parent folder of many runs blocks none of them.
     */
    public static Unfinished find(final Path source) {
        final Path abs = source.toAbsolutePath().normalize();
        for (Path p = Files.isDirectory(abs) ? abs : abs.getParent(); p != null; p = p.getParent()) {
            final Unfinished here = lockIn(p);
            if (here != null || RunDirectory.isOwnedHere(p)) {
                return here;
            }
            if (Files.exists(p.resolve(RunDirectory.MANIFEST_FILE))) {
                break; // the run's root
            }
        }
        if (!Files.isDirectory(abs)) {
            return null;
        }
        try (Stream<Path> walk = Files.walk(abs, MAX_DEPTH)) {
            return walk.filter(f -> f.getFileName().toString().equals(RunDirectory.LOCK_FILE))
                    .map(lock -> lockIn(lock.getParent())).filter(java.util.Objects::nonNull).findFirst().orElse(null);
        } catch (IOException e) {
            return null; // unreadable parts fail where they are read
        }
    }

    /** The unfinished run in {@code dir}, or null (no lock there, or this process's own run holds it). */
    private static Unfinished lockIn(final Path dir) {
        final Path lock = dir.resolve(RunDirectory.LOCK_FILE);
        if (RunDirectory.isOwnedHere(dir) || !Files.exists(lock)) {
            return null;
        }
        return new Unfinished(dir, RunDirectory.isHeld(dir));
    }
}
