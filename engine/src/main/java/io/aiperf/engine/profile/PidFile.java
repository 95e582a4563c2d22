package io.aiperf.engine.profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code --pid-file}: this process's id while it runs, for the CI integrations that stop a run with SIGTERM or
 * SIGINT; removed when the run ends.
 */
final class PidFile implements AutoCloseable {
    private final Path file;

    private PidFile(final Path file) {
        this.file = file;
    }

    /** @param file where to write the id, or null for no file */
    static PidFile write(final Path file) throws IOException {
        if (file != null) {
            Files.writeString(file, Long.toString(ProcessHandle.current().pid()));
        }
        return new PidFile(file);
    }

    @Override
    public void close() throws IOException {
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }
}
