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
 * finished itself (compare gating its sides) is the exception.
 */
final class UnfinishedRuns {
    private UnfinishedRuns() {
    }

    /** Why the run that wrote {@code source} cannot be judged, or null when it finished. */
    static String why(final Path source) {
        final Path abs = source.toAbsolutePath().normalize();
        for (Path p = Files.isDirectory(abs) ? abs : abs.getParent(); p != null; p = p.getParent()) {
            if (RunDirectory.isOwnedHere(p)) {
                return null;
            }
            if (Files.exists(p.resolve(RunDirectory.LOCK_FILE))) {
                return message(p);
            }
        }
        if (!Files.isDirectory(abs)) {
            return null;
        }
        try (Stream<Path> walk = Files.walk(abs)) {
            return walk.filter(f -> f.getFileName().toString().equals(RunDirectory.LOCK_FILE)).findFirst()
                    .map(lock -> message(lock.getParent())).orElse(null);
        } catch (IOException e) {
            return null; // unreadable parts fail where they are read
        }
    }

    private static String message(final Path runDir) {
        final String state = RunDirectory.isHeld(runDir) ? "is still running there" : "ended there without finishing "
                + "(killed?)";
        return "the run in " + runDir + " " + state + " (" + RunDirectory.LOCK_FILE + " is present): its results are "
                + "partial and are never judged; gate it once it has finished, or run it again";
    }
}
