package io.aiperf.engine.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.export.OutcomeJsonReader;
import io.aiperf.engine.export.OutcomeJsonWriter;
import io.aiperf.engine.gate.GateReports;
import io.aiperf.engine.gate.RunData;
import io.aiperf.engine.record.CellIdentity;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.SummaryCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * What a report shows: one or more runs (each its own series, never pooled with another), their cells, and the
 * gate's result when there is one. A cell file is read once even when a directory is given twice or lies inside
 * another (a gate's output in its candidate), so no trial counts twice. Immutable after loading.
 *
 * @param runs the runs, in the order given: a comparison's baseline first
 * @param gate {@code gate_result.json}, or null
 * @param searches the capacity searches of the runs' directories ({@code search_result.json}), in their order
 */
record ReportData(List<Run> runs, JsonNode gate, List<CapacitySection.Found> searches) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One run of a report: a name (its series' label), its directories and cells (by sweep point and trial). */
    record Run(String name, List<Path> dirs, List<Cell> cells) {
        /** The cells of each sweep point, points in numeric order. */
        Map<String, List<Cell>> points() {
            final Map<String, List<Cell>> out = new LinkedHashMap<>();
            cells.forEach(c -> out.computeIfAbsent(c.point(), k -> new ArrayList<>()).add(c));
            return out;
        }
    }

    /**
     * One cell.
     *
     * @param label the cell's id as the gate and the console name it ({@code base} for a run of one cell)
     * @param point its sweep point's label ({@code base} without a sweep), the gate's cell label
     */
    record Cell(String run, String label, String point, int trial, CellOutcome outcome, CellSummary summary,
                Supplier<RecordScan> records) {
        double stat(final String metric, final String stat) {
            return summary == null ? Double.NaN : summary.stat(metric, stat);
        }
    }

    /** One named run of a report: the directories whose cells it holds. */
    record Side(String name, List<Path> dirs) {
    }

    /** The label a comparison's sides share everywhere, as the gate names a run of one cell. */
    static final String SINGLE_POINT = RunData.BASE_CELL;

    static ReportData load(final List<Side> sides, final Path gateFile, final ExportNames names) {
        final Set<Path> seen = new HashSet<>();
        final List<Run> runs = new ArrayList<>();
        for (final Side side : sides) {
            final List<Cell> cells = new ArrayList<>();
            for (final Path dir : side.dirs()) {
                for (final Path f : files(dir, OutcomeJsonWriter.FILE)) {
                    if (seen.add(f.toAbsolutePath().normalize())) {
                        cells.add(cell(side.name(), f, names));
                    }
                }
            }
            runs.add(run(side.name(), side.dirs(), cells));
        }
        final List<CapacitySection.Found> searches = runs.stream().flatMap(r -> r.dirs().stream()).distinct()
                .map(CapacitySection.Found::read).filter(java.util.Objects::nonNull).toList();
        return new ReportData(List.copyOf(runs), gateFile == null ? null : read(gateFile), searches);
    }

    /** The baselines of a comparison whose candidate is in memory: an earlier run, on disk. */
    static ReportData baselines(final Side baselines, final ExportNames names) {
        return load(List.of(baselines), null, names);
    }

    /**
     * One run whose cells were just run or merged: their outcomes and summaries as the runner holds them, so
     * neither {@code cell_outcome.json} nor a summary is read back (the records still are, when a section draws them).
     *
     * @param summaries each cell's summary, or null when it has none
     * @param gate the gate's result as the gate just made it, or null
     * @param search the capacity search's result as the search just assembled it, or null
     */
    static ReportData of(final String name, final Path dir, final List<CellOutcome> outcomes,
                         final Function<CellOutcome, CellSummary> summaries, final JsonNode gate,
                         final JsonNode search, final ExportNames names) {
        final List<Cell> cells = new ArrayList<>();
        for (final CellOutcome o : outcomes) {
            cells.add(cell(name, o, summaries.apply(o), Path.of(o.artifactDir()), names));
        }
        return new ReportData(List.of(run(name, List.of(dir), cells)), gate,
                search == null ? List.of() : List.of(CapacitySection.Found.of(search, dir)));
    }

    /** These runs and then those of {@code next} (a candidate in memory after baselines read from disk). */
    ReportData then(final ReportData next) {
        final List<Run> both = new ArrayList<>(runs);
        both.addAll(next.runs());
        final List<CapacitySection.Found> found = new ArrayList<>(searches);
        found.addAll(next.searches());
        return new ReportData(List.copyOf(both), gate != null ? gate : next.gate(), List.copyOf(found));
    }

    private static Run run(final String name, final List<Path> dirs, final List<Cell> cells) {
        final List<Cell> sorted = new ArrayList<>(cells);
        sorted.sort(Comparator.comparing(Cell::point, ReportData::natural).thenComparingInt(Cell::trial)
                .thenComparing(Cell::label));
        return new Run(name, List.copyOf(dirs), List.copyOf(sorted));
    }

    boolean comparison() {
        return runs.size() > 1;
    }

    List<Cell> cells() {
        return runs.stream().flatMap(r -> r.cells().stream()).toList();
    }

    /** Every sweep point of any run, in numeric order. */
    List<String> points() {
        return cells().stream().map(Cell::point).distinct().sorted(ReportData::natural).toList();
    }

    /** The first {@code gate_result.json} under {@code dir}, or null. */
    static Path gateFile(final Path dir) {
        final List<Path> found = files(dir, GateReports.JSON_FILE);
        return found.isEmpty() ? null : found.get(0);
    }

    static int natural(final String a, final String b) {
        return io.aiperf.engine.ci.NaturalOrder.compare(a, b);
    }

    private static Cell cell(final String run, final Path outcomeFile, final ExportNames names) {
        final Path dir = outcomeFile.getParent();
        final CellOutcome o;
        try {
            o = OutcomeJsonReader.read(outcomeFile, dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        final Path summary = dir.resolve(names.summaryJson());
        return cell(run, o, Files.isRegularFile(summary) ? SummaryCodec.read(read(summary)) : null, dir, names);
    }

    private static Cell cell(final String run, final CellOutcome o, final CellSummary summary, final Path dir,
                             final ExportNames names) {
        final String point = o.cell().variation() != null ? o.cell().variation() : SINGLE_POINT;
        final String label = o.cell().id().equals(CellIdentity.SINGLE) ? SINGLE_POINT : o.cell().id();
        return new Cell(run, label, point, o.cell().trial(), o, summary, once(dir.resolve(names.recordsJsonl())));
    }

    /** A cell's records, read (in one pass) the first time a section asks for them. */
    private static Supplier<RecordScan> once(final Path file) {
        return new Supplier<>() {
            private RecordScan scan;

            @Override
            public synchronized RecordScan get() {
                if (scan == null) {
                    scan = RecordScan.of(file);
                }
                return scan;
            }
        };
    }

    static List<Path> files(final Path root, final String name) {
        if (Files.isRegularFile(root)) {
            return root.getFileName().toString().equals(name) ? List.of(root) : List.of();
        }
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.getFileName().toString().equals(name)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode read(final Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            return null;
        }
    }
}
