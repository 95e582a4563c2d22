package io.aiperf.jenkins;

import hudson.FilePath;
import hudson.model.Run;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.List;
import jenkins.util.VirtualFile;

/** Reads a build's archived files back through its artifact manager (works with remote artifact stores too). */
final class ArchivedFiles {
    private ArchivedFiles() {
    }

    /** Paths under the archive folder matching the Ant-style includes; none when the folder is absent. */
    static Collection<String> list(final Run<?, ?> build, final String prefix, final String includes)
            throws IOException {
        final VirtualFile dir = build.getArtifactManager().root().child(prefix);
        return dir.isDirectory() ? dir.list(includes, null, false) : List.of();
    }

    /** Copies those files to a folder on the agent, keeping their relative paths; returns how many. */
    static int copy(final Run<?, ?> build, final String prefix, final String includes, final FilePath target)
            throws IOException, InterruptedException {
        final Collection<String> files = list(build, prefix, includes);
        for (final String rel : files) {
            final FilePath file = target.child(rel);
            final FilePath parent = file.getParent();
            if (parent != null) {
                parent.mkdirs();
            }
            try (InputStream in = build.getArtifactManager().root().child(prefix + rel).open()) {
                file.copyFrom(in);
            }
        }
        return files.size();
    }
}
