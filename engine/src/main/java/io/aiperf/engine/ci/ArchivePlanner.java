package io.aiperf.engine.ci;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Which export files to archive: every regular file under the export directory that matches an include glob
 * and no exclude glob, as sorted paths relative to the directory. Stateless.
 */
public final class ArchivePlanner {
    /** The default: everything the engine writes. */
    public static final List<String> DEFAULT_INCLUDES = List.of("**");
    /** What the gate reads from a baseline build's archive (Ant-style globs, comma separated). */
    public static final String BASELINE_INCLUDES = "**/profile_export_aiperf.json,**/profile_export_aiperf_aggregate.json,"
            + "**/cell_outcome.json," // the outcomes: which cells completed, and the report's baseline series
            + "**/search_result.json," // a capacity search's result, for a capacity rule
            + "**/profile_export.jsonl"; // the requests, so a one-trial rule can judge the noise (gating.md)

    private ArchivePlanner() {
    }

    public static List<String> plan(final Path exportDir, final List<String> includes, final List<String> excludes) {
        if (!Files.isDirectory(exportDir)) {
            return List.of();
        }
        final List<PathMatcher> in = matchers(includes.isEmpty() ? DEFAULT_INCLUDES : includes);
        final List<PathMatcher> out = matchers(excludes);
        try (Stream<Path> walk = Files.walk(exportDir)) {
            return walk.filter(Files::isRegularFile)
                    .map(exportDir::relativize)
                    .filter(rel -> in.stream().anyMatch(m -> matches(m, rel)) && out.stream().noneMatch(m -> matches(m, rel)))
                    .map(rel -> rel.toString().replace('\\', '/'))
                    .filter(rel -> !rel.contains("/.") && !rel.startsWith(".")) // temp files of atomic writes
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The map a CI artifact store takes: archive path ({@code prefix} + path in the export directory) to the
     * path relative to the workspace, both with {@code /}.
     */
    public static Map<String, String> artifacts(final String exportDir, final List<String> files, final String prefix) {
        final String base = exportDir.replace('\\', '/').replaceAll("/+$", "");
        final Map<String, String> out = new LinkedHashMap<>();
        files.forEach(f -> out.put(prefix + f, base.isEmpty() || base.equals(".") ? f : base + "/" + f));
        return out;
    }

    private static List<PathMatcher> matchers(final List<String> globs) {
        return globs.stream().map(g -> FileSystems.getDefault().getPathMatcher("glob:" + g)).toList();
    }

    /** {@code **} also matches files at the top level. */
    private static boolean matches(final PathMatcher m, final Path rel) {
        return m.matches(rel) || m.matches(Path.of("_").resolve(rel));
    }
}
