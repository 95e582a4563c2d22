package io.aiperf.engine.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.record.CellOutcome;
import io.aiperf.engine.summary.AggregateCodec;
import io.aiperf.engine.summary.CellOutcomeCodec;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.summary.SummaryCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The metric values of one or more runs, by cell: for each cell label, metric tag and stat, one value per
 * trial. Reads run directories (every {@code profile_export_aiperf.json} below them; {@code run_NNNN},
 * {@code trial_NNNN} and {@code profile_runs} path segments are trials, not cells), summary JSON files, and
 * AIPerf aggregate JSON files ({@code <tag>_<stat>} keys). Immutable after loading.
 */
public final class RunData {
    public static final String BASE_CELL = "base";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TRIAL_SEGMENT = Pattern.compile("run_\\d+|trial_\\d+|profile_runs|aggregate");
    private final Map<String, Map<String, List<Double>>> cells = new TreeMap<>();
    private final Map<String, List<CellSummary>> summaries = new TreeMap<>();
    private final Map<String, List<Path>> records = new TreeMap<>();
    private final List<String> notes = new ArrayList<>();
    private final Map<String, String> unfinished = new TreeMap<>();
    private final List<SearchOutcome> searches = new ArrayList<>();

    private static final String SUMMARY = ExportFiles.SUMMARY_JSON;
    private static final String NO_RESULTS = "holds no run results (no " + SUMMARY + " or cell summary)";
    private static final String AGGREGATE = ExportFiles.AGGREGATE_JSON;
    private static final String OUTCOME = ExportFiles.CELL_OUTCOME;
    private static final java.util.Set<String> NOT_SUMMARIES = java.util.Set.of(ExportFiles.CELL_OUTCOME,
            ExportFiles.RUN_OUTCOME, ExportFiles.GATE_JSON, ExportFiles.INPUTS_JSON);

    /** Loads and pools every source: several baselines become "the mean of the last N". */
    public static RunData load(final List<Path> sources) {
        final RunData data = new RunData();
        for (final Path p : sources) {
            data.add(p);
        }
        return data;
    }

    /**
     * The run whose cells were just run, from their outcomes and summaries in memory: the same cells, values and
     * records files as {@link #load} finds in {@code dir} once they are written, with nothing read back.
     *
     * @param summaries each cell's summary, or null when it wrote none
     * @param search the run's capacity search, or null
     * @throws ConfigException when no cell wrote a summary and none is unfinished, as {@link #load} does
     */
    public static RunData of(final Path dir, final List<CellOutcome> outcomes,
                             final Function<CellOutcome, CellSummary> summaries, final SearchOutcome search,
                             final ExportNames names) {
        final RunData data = new RunData();
        if (search != null) {
            data.searches.add(search);
        }
        final Path run = dir.toAbsolutePath().normalize();
        // in the order load walks the directory: by each cell's summary file
        final Map<Path, CellOutcome> bySummary = new TreeMap<>();
        for (final CellOutcome o : outcomes) {
            final Path relative = run.relativize(Path.of(o.artifactDir()).toAbsolutePath().normalize());
            bySummary.put(dir.resolve(relative).resolve(names.summaryJson()), o);
        }
        bySummary.forEach((file, o) -> {
            final String cell = label(dir.relativize(file.getParent()));
            if (!o.completed()) {
                data.unfinished(cell, o.status().wireName(), o.error());
            }
        });
        bySummary.forEach((file, o) -> {
            final CellSummary summary = summaries.apply(o);
            if (summary != null) {
                final String cell = label(dir.relativize(file.getParent()));
                data.addSummary(summary, cell);
                data.records.computeIfAbsent(cell, c -> new ArrayList<>())
                        .add(file.resolveSibling(names.recordsJsonl()));
            }
        });
        if (data.summaries.isEmpty() && data.unfinished.isEmpty()) {
            throw new ConfigException(dir.toString(), NO_RESULTS);
        }
        return data;
    }

    private void add(final Path source) {
        final String running = UnfinishedRuns.why(source);
        if (running != null) {
            throw new ConfigException(source.toString(), running);
        }
        if (Files.isDirectory(source)) {
            final SearchOutcome search = SearchOutcome.in(source);
            if (search != null) {
                searches.add(search);
            }
            List<Path> files;
            try (Stream<Path> walk = Files.walk(source)) {
                files = walk.filter(f -> summaryFile(f) || f.getFileName().toString().equals(AGGREGATE)
                        || f.getFileName().toString().equals(OUTCOME)).sorted().toList();
            } catch (IOException e) {
                throw new ConfigException(source.toString(), "cannot read: " + e.getMessage());
            }
            for (final Path f : files) {
                if (f.getFileName().toString().equals(OUTCOME)) {
                    addOutcome(f, label(source.relativize(f.getParent())));
                }
            }
            files = files.stream().filter(f -> !f.getFileName().toString().equals(OUTCOME)).toList();
            if (files.isEmpty() && unfinished.isEmpty()) {
                throw new ConfigException(source.toString(), NO_RESULTS);
            }
            // Per-trial summaries are the data; an aggregate beside them is derived from them and is used only
            // when it is all there is.
            final boolean perTrial = files.stream().anyMatch(f -> !f.getFileName().toString().equals(AGGREGATE));
            for (final Path f : files) {
                if (perTrial && f.getFileName().toString().equals(AGGREGATE)) {
                    continue;
                }
                addFile(f, label(source.relativize(f.getParent())));
            }
        } else if (Files.isRegularFile(source)) {
            if (Files.isRegularFile(source.resolveSibling(OUTCOME)) && !source.getFileName().toString().equals(OUTCOME)) {
                addOutcome(source.resolveSibling(OUTCOME), BASE_CELL);
            }
            final long before = valueCount();
            addFile(source, BASE_CELL);
            if (valueCount() == before) {
                // {}, inputs.json, cell_outcome.json: nothing to compare with, which must not read as "no change"
                throw new ConfigException(source.toString(), "not a run summary: it holds no metric; pass a run "
                        + "directory or its profile_export_aiperf.json");
            }
        } else {
            throw new ConfigException(source.toString(), "no such run directory or summary file");
        }
    }

    /**
     * Whether a file is a cell's summary: {@code profile_export_aiperf.json}, or, for runs written with
     * {@code --profile-export-prefix}, the JSON beside a {@code cell_outcome.json} that holds an {@code input_config}.
     */
    static boolean summaryFile(final Path f) {
        final String name = f.getFileName().toString();
        if (name.equals(SUMMARY)) {
            return true;
        }
        if (!name.endsWith(".json") || NOT_SUMMARIES.contains(name) || name.startsWith(".")
                || serverMetricsFile(name) || !Files.isRegularFile(f.resolveSibling(OUTCOME))) {
            return false;
        }
        try (com.fasterxml.jackson.core.JsonParser p = new com.fasterxml.jackson.core.JsonFactory().createParser(f.toFile())) {
            if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                return false;
            }
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                if (p.currentName().equals(SummaryCodec.INPUT_CONFIG)) {
                    return true;
                }
                p.nextToken();
                p.skipChildren();
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** The servers' metrics: upstream's shape holds an {@code input_config} too, but no measurement of the cell. */
    private static boolean serverMetricsFile(final String name) {
        return name.equals(ExportFiles.SERVER_METRICS_JSON) || name.endsWith(ExportFiles.PREFIXED_SERVER_METRICS_JSON);
    }

    private long valueCount() {
        return cells.values().stream().flatMap(m -> m.values().stream()).mapToLong(List::size).sum();
    }

    /**
     * Notes a cell whose run did not complete (its {@code cell_outcome.json} says failed or cancelled): its numbers,
     * if any, describe a broken or partial run and can neither pass a candidate nor serve as a baseline.
     */
    private void addOutcome(final Path file, final String cell) {
        final JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new ConfigException(file.toString(), "not a readable cell outcome: " + e.getMessage());
        }
        final String status = root.path(CellOutcomeCodec.STATUS).asText("");
        if (!status.equals(io.aiperf.engine.record.CellStatus.COMPLETED.wireName())) {
            unfinished(cell, status, root.path(CellOutcomeCodec.ERROR).textValue()); // null unless text
        }
    }

    private void unfinished(final String cell, final String status, final String error) {
        unusable(cell, "its run " + (status.isEmpty() ? "has no status" : status) + (error == null ? "" : ": " + error));
    }

    /** Notes why a cell's numbers can neither pass a candidate nor serve as a baseline. */
    private void unusable(final String cell, final String why) {
        unfinished.merge(cell, why, (a, b) -> a.equals(b) ? a : a + "; " + b);
        cells.computeIfAbsent(cell, c -> new TreeMap<>());
    }

    /**
     * A summary that counted no valid request (every request failed, or an imported result with zero successes)
     * measured the failures: its cell is unusable, so an all-failed baseline never passes a candidate.
     */
    private void checkValidRequests(final JsonNode summary, final String cell, final String source) {
        final JsonNode count = summary.path(io.aiperf.engine.metrics.MetricRegistry.REQUEST_COUNT.tag()).path("avg");
        final JsonNode errors = summary.path(io.aiperf.engine.metrics.MetricRegistry.ERROR_COUNT.tag()).path("avg");
        if (count.isNumber() ? count.doubleValue() < 1 : errors.isNumber() && errors.doubleValue() > 0) {
            unusable(cell, source + " has no valid request (every request failed)");
        }
    }

    /** Why a cell's run cannot be gated (it failed or was cancelled), or null when it completed. */
    public String unfinished(final String cell) {
        return unfinished.get(cell);
    }

    /**
     * Whether a baseline source holds any results: an existing empty directory (a first build) holds none.
     *
     * @throws ConfigException when the path does not exist: a typo must not pass every build
     */
    public static boolean checkBaseline(final Path source) {
        if (!Files.exists(source)) {
            throw new ConfigException(source.toString(), "no such run directory or summary file (for a first build "
                    + "with no baseline yet, create the directory empty or leave out --baseline)");
        }
        return hasResults(source);
    }

    /**
     * The export names a run directory was written with: AIPerf's defaults, or those of the
     * {@code --profile-export-prefix} its first cell summary shows (the report reads its cells by them).
     */
    public static ExportNames exportNames(final Path runDir) {
        try (Stream<Path> walk = Files.walk(runDir)) {
            final String name = walk.filter(RunData::summaryFile).map(f -> f.getFileName().toString()).sorted()
                    .findFirst().orElse(SUMMARY);
            return ExportNames.of(name.equals(SUMMARY) ? null : name);
        } catch (IOException | java.io.UncheckedIOException e) {
            return ExportNames.of(null);
        }
    }

    /** Whether a baseline source holds any results (a first build's empty or missing baseline holds none). */
    public static boolean hasResults(final Path source) {
        if (Files.isRegularFile(source)) {
            return true;
        }
        if (!Files.isDirectory(source)) {
            return false;
        }
        try (Stream<Path> walk = Files.walk(source)) {
            return walk.anyMatch(f -> summaryFile(f) || f.getFileName().toString().equals(AGGREGATE)
                    || f.getFileName().toString().equals(OUTCOME));
        } catch (IOException e) {
            return false;
        }
    }

    static String label(final Path relative) {
        final List<String> parts = new ArrayList<>();
        for (final Path seg : relative) {
            final String s = seg.toString();
            if (!s.isEmpty() && !TRIAL_SEGMENT.matcher(s).matches()) {
                parts.add(s);
            }
        }
        return parts.isEmpty() ? BASE_CELL : String.join("/", parts);
    }

    private void addFile(final Path file, final String cell) {
        final JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new ConfigException(file.toString(), "not a readable JSON summary: " + e.getMessage());
        }
        final List<io.aiperf.engine.importer.ImportedRun> imported = io.aiperf.engine.importer.ForeignResults.read(root);
        if (!imported.isEmpty()) {
            for (final io.aiperf.engine.importer.ImportedRun run : imported) {
                notes.add(file.getFileName() + ": imported from " + run.tool() + "; it does not measure "
                        + String.join(", ", run.missing()));
                final String runCell = run.cell().equals(io.aiperf.engine.importer.ImportedRun.SINGLE_CELL)
                        ? cell : run.cell();
                checkValidRequests(run.summary(), runCell, file.getFileName() + " (" + run.tool() + ")");
                addSummary(run.summary(), runCell);
            }
            return;
        }
        final Map<String, List<Double>> values = cells.computeIfAbsent(cell, c -> new TreeMap<>());
        if (root.has(AggregateCodec.METRICS)
                && root.path(AggregateCodec.METADATA).has(AggregateCodec.AGGREGATION_TYPE)) {
            final Iterator<Map.Entry<String, JsonNode>> it = root.get(AggregateCodec.METRICS).properties().iterator();
            while (it.hasNext()) {
                final Map.Entry<String, JsonNode> e = it.next();
                final JsonNode mean = e.getValue().get(AggregateCodec.MEAN);
                if (mean != null && mean.isNumber()) {
                    values.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(mean.doubleValue());
                }
            }
            return;
        }
        checkValidRequests(root, cell, file.getFileName().toString());
        addSummary(root, cell);
        // The per-request records beside the summary (AIPerf's naming: foo.json -> foo.jsonl), for one-trial gates.
        final String name = file.getFileName().toString();
        records.computeIfAbsent(cell, c -> new ArrayList<>()).add(file.resolveSibling(
                io.aiperf.engine.export.ExportNames.of(name.equals(SUMMARY) ? null : name).recordsJsonl()));
    }

    private void addSummary(final JsonNode root, final String cell) {
        addSummary(SummaryCodec.read(root), cell);
    }

    /** One trial's summary of a cell: its values by {@code <tag>_<stat>}, and the summary for validity checks. */
    private void addSummary(final CellSummary summary, final String cell) {
        final Map<String, List<Double>> values = cells.computeIfAbsent(cell, c -> new TreeMap<>());
        summaries.computeIfAbsent(cell, c -> new ArrayList<>()).add(summary);
        summary.metrics().forEach((tag, metric) -> metric.stats().forEach((stat, v) ->
                values.computeIfAbsent(tag + "_" + stat, k -> new ArrayList<>()).add(v)));
    }

    /** The per-trial summaries of a cell (none for an aggregate-only source), for validity and fingerprints. */
    public List<CellSummary> summaries(final String cell) {
        return summaries.getOrDefault(cell, List.of());
    }

    /**
     * The records files ({@code profile_export.jsonl}) of a cell's trials that came with summaries of this tool or
     * AIPerf (none for imported or aggregate-only sources); a file may not exist.
     */
    public List<Path> records(final String cell) {
        return records.getOrDefault(cell, List.of());
    }

    /** The first summary of any cell, or null: the run's environment fingerprint is the same in every cell. */
    public CellSummary anySummary() {
        return summaries.values().stream().flatMap(List::stream).findFirst().orElse(null);
    }

    /** The capacity searches of the sources ({@code search_result.json} at their top), one per source that ran one. */
    public List<SearchOutcome> searches() {
        return List.copyOf(searches);
    }

    /** What the loader wants said: which files came from other tools, and what they do not measure. */
    public List<String> notes() {
        return List.copyOf(notes);
    }

    public List<String> cells() {
        return new ArrayList<>(cells.keySet());
    }

    /** One value per trial of {@code tag stat} in {@code cell}; empty when absent. */
    public double[] values(final String cell, final String tag, final String stat) {
        final Map<String, List<Double>> m = cells.get(cell);
        if (m == null) {
            return new double[0];
        }
        List<Double> v = m.get(tag + "_" + stat);
        if (v == null && stat.equals("value")) {
            v = m.get(tag + "_avg");
        }
        return v == null ? new double[0] : v.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
