package io.aiperf.engine.export;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes a file so readers see the old file or the whole new one, never a part: temp file, then rename. */
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

    public static void write(final Path target, final Writer writer) {
        try {
            final Path dir = target.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            final Path tmp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
            try {
                try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                    writer.write(out);
                }
                try {
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }
}
