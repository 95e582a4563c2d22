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
        final Map<String, List<CellOutcome>> byId = new LinkedHashMap<>();
        for (final Path input : inputs) {
            if (!Files.isDirectory(input)) {
                throw new ConfigException("DIR", input + " is not a directory");
            }
            for (final Path file : outcomeFiles(input)) {
                final CellOutcome found = read(file, file.getParent());
                if (found != null) {
                    byId.computeIfAbsent(found.cell().id(), k -> new ArrayList<>()).add(found);
                }
            }
        }
        final List<CellOutcome> merged = new ArrayList<>();
        for (final List<CellOutcome> group : byId.values()) {
            final CellOutcome found = group.get(0);
            final String id = found.cell().id();
            final boolean sharded = found.shard() != null && found.shard().count() > 1;
            if (!sharded && group.size() > 1) {
                throw new ConfigException("DIR", "cell " + id + " appears twice: in " + found.artifactDir() + " and in "
                        + group.get(1).artifactDir());
            }
            if (!merged.isEmpty() && !samePlan(merged.get(0), found)) {
                throw new ConfigException("DIR", "cell " + id + " in " + found.artifactDir() + " comes from another plan ("
                        + found.cell().numTrials() + " trial(s), sweep " + (found.cell().variation() != null)
                        + ") than cell " + merged.get(0).cell().id());
            }
            final Path target = outDir.resolve(found.cell().path()).normalize();
            if (sharded) {
                if (group.stream().anyMatch(o -> o.shard() == null)) {
                    throw new ConfigException("DIR", "cell " + id + " was run both whole and in shards");
                }
                final CellOutcome shard1 = group.stream().filter(o -> o.shard().index() == 1).findFirst().orElse(found);
                copyFiles(Path.of(shard1.artifactDir()), target); // inputs, server metrics, logs: the first shard's
                merged.add(ShardMerger.merge(group, target, names));
            } else {
                copyFiles(Path.of(found.artifactDir()), target);
                merged.add(read(target.resolve(OutcomeJsonWriter.FILE), target));
            }
        }
        if (merged.isEmpty()) {
            throw new ConfigException("DIR", "no cell found (no cell_outcome.json with a cell id) under "
                    + inputs.stream().map(Path::toString).toList());
        }
        return merged;
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
                for (final Path f : files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith("."))
                        .toList()) {
                    Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + from + " to " + to + ": " + e.getMessage(), e);
        }
    }
}
