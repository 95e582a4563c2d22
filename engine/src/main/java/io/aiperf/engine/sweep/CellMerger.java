package io.aiperf.engine.sweep;

import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.OutcomeJsonReader;
import io.aiperf.engine.export.OutcomeJsonWriter;
import io.aiperf.engine.record.CellOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Collects cells run apart (other processes, other machines, archived by CI) into one run directory in the
 * normal layout, each cell where {@link CellPlan} puts it; the shards of a cell become the cell ({@link ShardMerger}). Cells are found by their {@code cell_outcome.json};
 * a cell's files are the files beside it. Stateless.
 */
public final class CellMerger {
    private CellMerger() {
    }

    /**
     * @return the merged cells' outcomes, pointing at their new directories
     * @throws ConfigException when there is no cell, a cell appears twice, the cells come from different plans, or
     *                         the shards of a cell are incomplete or disagree
     */
    public static List<CellOutcome> merge(final List<Path> inputs, final Path outDir) {
        return merge(inputs, outDir, ExportNames.of(null));
    }

    /** As {@link #merge(List, Path)}, for cells written with the export names {@code names}. */
    public static List<CellOutcome> merge(final List<Path> inputs, final Path outDir, final ExportNames names) {
        return plan(inputs, outDir, names).write();
    }

    /** Cells found and checked, not yet written: {@link #write()} copies them into the output directory. */
    public static final class Plan {
        private final Map<List<CellOutcome>, Path> targets;
        private final ExportNames names;

        private Plan(final Map<List<CellOutcome>, Path> targets, final ExportNames names) {
            this.targets = targets;
            this.names = names;
        }

        /** @return the merged cells' outcomes, pointing at their new directories */
        public List<CellOutcome> write() {
            final List<CellOutcome> merged = new ArrayList<>();
            for (final Map.Entry<List<CellOutcome>, Path> e : targets.entrySet()) {
                final List<CellOutcome> group = e.getKey();
                final Path target = e.getValue();
                final CellOutcome found = group.get(0);
                if (found.shard() != null && found.shard().count() > 1) {
                    final CellOutcome shard1 = group.stream().filter(o -> o.shard().index() == 1).findFirst()
                            .orElse(found);
                    copyFiles(Path.of(shard1.artifactDir()), target); // inputs, server metrics, logs: the first shard's
                    merged.add(ShardMerger.merge(group, target, names));
                } else {
                    copyFiles(Path.of(found.artifactDir()), target);
                    merged.add(read(target.resolve(OutcomeJsonWriter.FILE), target));
                }
            }
            return merged;
        }
    }

    /**
     * Finds the cells and checks every one before anything is written: a refused input leaves the output
     * directory as it was.
     *
     * @throws ConfigException as {@link #merge(List, Path)}, and when a cell's path or files lead outside
     */
    public static Plan plan(final List<Path> inputs, final Path outDir, final ExportNames names) {
        final Map<String, List<CellOutcome>> byId = new LinkedHashMap<>();
        for (final Path input : inputs) {
            if (!Files.isDirectory(input)) {
                throw new ConfigException("DIR", input + " is not a directory");
            }
            final Path realInput = realPath(input);
            for (final Path file : outcomeFiles(input)) {
                confined(file, realInput, "DIR", "cell outcome " + file);
                final CellOutcome found = read(file, file.getParent());
                if (found != null) {
                    byId.computeIfAbsent(found.cell().id(), k -> new ArrayList<>()).add(found);
                }
            }
        }
        final Path out = outDir.toAbsolutePath().normalize();
        final Map<List<CellOutcome>, Path> targets = new LinkedHashMap<>();
        CellOutcome first = null;
        for (final List<CellOutcome> group : byId.values()) {
            final CellOutcome found = group.get(0);
            final String id = found.cell().id();
            final boolean sharded = found.shard() != null && found.shard().count() > 1;
            if (!sharded && group.size() > 1) {
                throw new ConfigException("DIR", "cell " + id + " appears twice: in " + found.artifactDir() + " and in "
                        + group.get(1).artifactDir());
            }
            if (first != null && !samePlan(first, found)) {
                throw new ConfigException("DIR", "cell " + id + " in " + found.artifactDir() + " comes from another plan ("
                        + found.cell().numTrials() + " trial(s), sweep " + (found.cell().variation() != null)
                        + ") than cell " + first.cell().id());
            }
            first = first == null ? found : first;
            if (sharded && group.stream().anyMatch(o -> o.shard() == null)) {
                throw new ConfigException("DIR", "cell " + id + " was run both whole and in shards");
            }
            targets.put(group, target(out, found));
            for (final CellOutcome o : group) {
                ownFilesOnly(Path.of(o.artifactDir()), id);
            }
        }
        if (targets.isEmpty()) {
            throw new ConfigException("DIR", "no cell found (no cell_outcome.json with a cell id) under "
                    + inputs.stream().map(Path::toString).toList());
        }
        return new Plan(targets, names);
    }

    /**
     * Where a cell goes: its recorded path under the output directory, which must stay there (no absolute path,
     * no "..", no symbolic link out of it on the way), since the path comes from a file anyone could have written.
     */
    private static Path target(final Path out, final CellOutcome cell) {
        final String path = cell.cell().path();
        final Path target;
        try {
            target = out.resolve(path).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw new ConfigException("DIR", "cell " + cell.cell().id() + ": its path '" + path + "' is not a path");
        }
        if (Path.of(path).isAbsolute() || !target.startsWith(out)) {
            throw new ConfigException("DIR", "cell " + cell.cell().id() + " in " + cell.artifactDir() + ": its path '"
                    + path + "' leaves --output-dir; refusing to write outside " + out);
        }
        Path existing = target;
        while (existing != null && !Files.exists(existing, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing != null && existing.startsWith(out) && !existing.equals(out)) {
            confined(existing, realPath(out), "DIR", "cell " + cell.cell().id() + ": " + existing);
        }
        return target;
    }

    /** A cell's files must be its own: a symbolic link would copy whatever it points at into the merged run. */
    private static void ownFilesOnly(final Path cellDir, final String id) {
        try (Stream<Path> files = Files.list(cellDir)) {
            for (final Path f : files.toList()) {
                if (Files.isSymbolicLink(f)) {
                    throw new ConfigException("DIR", "cell " + id + " in " + cellDir + ": " + f.getFileName()
                            + " is a symbolic link; aggregate copies only a cell's own files");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + cellDir + ": " + e.getMessage(), e);
        }
    }

    private static void confined(final Path path, final Path realBase, final String field, final String what) {
        if (!realPath(path).startsWith(realBase)) {
            throw new ConfigException(field, what + " resolves outside " + realBase + " (a symbolic link?); refused");
        }
    }

    private static Path realPath(final Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new ConfigException("DIR", "cannot resolve " + p + ": " + e.getMessage());
        }
    }

    private static boolean samePlan(final CellOutcome a, final CellOutcome b) {
        return a.cell().numTrials() == b.cell().numTrials()
                && (a.cell().variation() == null) == (b.cell().variation() == null)
                && a.cell().parameters().keySet().equals(b.cell().parameters().keySet());
    }

    private static List<Path> outcomeFiles(final Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.getFileName().toString().equals(OutcomeJsonWriter.FILE)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CellOutcome read(final Path file, final Path dir) {
        try {
            return OutcomeJsonReader.read(file, dir);
        } catch (IOException e) {
            throw new ConfigException("DIR", "cannot read " + file + ": " + e.getMessage());
        }
    }

    /** The cell's own files (cells write no subdirectories); the same directory in and out is left alone. */
    private static void copyFiles(final Path from, final Path to) {
        try {
            if (Files.isDirectory(to) && Files.isSameFile(from, to)) {
                return;
            }
            Files.createDirectories(to);
            try (Stream<Path> files = Files.list(from)) {
                for (final Path f : files.filter(f -> Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                        .filter(f -> !f.getFileName().toString().startsWith("."))
                        .toList()) {
                    io.aiperf.engine.export.RunDirectory.wrote(to.resolve(f.getFileName()));
                    Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + from + " to " + to + ": " + e.getMessage(), e);
        }
    }
}
