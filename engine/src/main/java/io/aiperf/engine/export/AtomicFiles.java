package io.aiperf.engine.export;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a file so readers see the old file or the whole new one, never a part: temp file, then rename. The file
 * gets the mode the umask gives new files (src-docs/exports.md).
 */
public final class AtomicFiles {
    /** Writes the content through an output stream. */
    public interface Writer {
        void write(OutputStream out) throws IOException;
    }

    private AtomicFiles() {
    }

    public static void write(final Path target, final byte[] content) {
        write(target, out -> out.write(content));
    }

    /** A file being written over time; readers see nothing of it until {@link #commit()}. */
    public static final class Pending {
        private final Path target;
        private final Path tmp;
        private final OutputStream out;

        private Pending(final Path target, final Path tmp, final OutputStream out) {
            this.target = target;
            this.tmp = tmp;
            this.out = out;
        }

        public OutputStream stream() {
            return out;
        }

        /** Closes the stream and moves the whole file into place. */
        public void commit() {
            try {
                out.close();
                move(tmp, target);
            } catch (IOException e) {
                abort();
                throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
            }
        }

        /** Closes the stream and forgets the file. */
        public void abort() {
            try {
                out.close();
            } catch (IOException e) {
                // the temporary file goes anyway
            }
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                // nothing more to do
            }
        }
    }

    /** Starts writing {@code target} through a temporary file next to it. */
    public static Pending begin(final Path target) {
        RunDirectory.wrote(target);
        try {
            final Path dir = target.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            final Path tmp = tempFile(dir, target);
            return new Pending(target, tmp, new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    /**
     * A new file beside the target, created as any file is (mode 0666 less the umask), so the export can be read
     * by whoever the user's umask lets read it; {@code Files.createTempFile} would make every export 0600.
     */
    private static Path tempFile(final Path dir, final Path target) throws IOException {
        while (true) {
            final Path tmp = dir.resolve("." + target.getFileName() + "."
                    + Long.toUnsignedString(java.util.concurrent.ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
            try {
                return Files.createFile(tmp);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // another writer's name: draw again
            }
        }
    }

    private static void move(final Path tmp, final Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    public static void write(final Path target, final Writer writer) {
        RunDirectory.wrote(target);
        try {
            final Path dir = target.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            final Path tmp = tempFile(dir, target);
            try {
                try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                    writer.write(out);
                }
                move(tmp, target);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }
}
