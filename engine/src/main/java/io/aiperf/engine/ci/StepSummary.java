package io.aiperf.engine.ci;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.summary.CellOutcomeCodec;
import io.aiperf.engine.summary.ExportFiles;
import io.aiperf.engine.summary.GateResultCodec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a CI step returns to its script and shows on the build page, built from the engine's exit code and files.
 * Only JDK types (String, Integer, Long, Double, Boolean, ArrayList, LinkedHashMap), so it crosses a remoting
 * channel, persists and is readable from a sandboxed Pipeline script. Stateless.
 */
public final class StepSummary {
    public static final String VERDICT = "verdict";
    public static final String EXIT_CODE = "exitCode";
    public static final String REASONS = "reasons";
    public static final String WARNINGS = "warnings";
    public static final String GATE = "gate";
    public static final String GATE_RULES = "gateRules";
    public static final String CELLS = "cells";
    public static final String HOOKS = "hooks";
    public static final String METRICS = "metrics";
    /** The key metrics per sweep point ({@link KeyMetrics#byPoint}): the trend draws one series per point. */
    public static final String POINT_METRICS = "pointMetrics";
    public static final String ARCHIVED = "archived";
    /** The call's id ({@link CallFolders}). */
    public static final String ID = "id";
    /** The call's folder in the workspace, where its exports are. */
    public static final String EXPORT_DIR = "exportDir";
    /** The build numbers the gate compared with, newest first (empty without a baseline). */
    public static final String BASELINE_BUILDS = "baselineBuilds";
    /** The full name of the CI job those builds belong to, or null when they are the build's own job's. */
    public static final String BASELINE_JOB = "baselineJob";
    /** The comparison with the baseline, one row per key metric ({@link Comparison}). */
    public static final String COMPARISON = "comparison";
    /** The capacity search's result ({@link SearchCapacity#toMap}), or null when the call ran no search. */
    public static final String CAPACITY = SearchCapacity.KEY;
    /** The gate status when no gate ran. */
    public static final String NO_GATE = "none";

    private StepSummary() {
    }

    /**
     * @param exportDir the run directory the engine wrote
     * @param archived archive paths of the files archived, empty when archiving is off
     */
    public static LinkedHashMap<String, Object> of(final int exitCode, final Path exportDir,
                                                   final boolean unstableOnWarnings, final List<String> archived) {
        final Classification c = OutcomeClassifier.classify(exitCode, exportDir, unstableOnWarnings);
        final LinkedHashMap<String, Object> out = new LinkedHashMap<>();
        out.put(VERDICT, c.verdict().name());
        out.put(EXIT_CODE, exitCode);
        out.put(REASONS, new ArrayList<>(c.reasons()));
        out.put(WARNINGS, new ArrayList<>(c.warnings()));
        final JsonNode gate = KeyMetrics.read(exportDir.resolve(ExportFiles.GATE_JSON));
        out.put(GATE, gate == null ? NO_GATE : gate.path(GateResultCodec.VERDICT).asText());
        final ArrayList<LinkedHashMap<String, Object>> rules = new ArrayList<>();
        if (gate != null) {
            gate.path(GateResultCodec.RULES).forEach(r -> {
                final LinkedHashMap<String, Object> rule = new LinkedHashMap<>();
                // a capacity rule's metric is the capacity itself, as in the key metrics
                final String metric = r.path(GateResultCodec.METRIC).asText();
                rule.put("metric", metric.equals(SearchCapacity.KEY) ? SearchCapacity.KEY
                        : metric + "_" + r.path(GateResultCodec.STAT).asText());
                rule.put("cell", r.path(GateResultCodec.CELL).asText());
                rule.put("status", r.path(GateResultCodec.STATUS).asText());
                rule.put("limit", r.path(GateResultCodec.LIMIT).asText(""));
                rule.put("message", r.path(GateResultCodec.MESSAGE).asText());
                rules.add(rule);
            });
        }
        out.put(GATE_RULES, rules);
        final ArrayList<LinkedHashMap<String, Object>> cells = new ArrayList<>();
        final ArrayList<LinkedHashMap<String, Object>> hooks = new ArrayList<>();
        for (final Path file : OutcomeClassifier.outcomeFiles(exportDir)) {
            final JsonNode o = KeyMetrics.read(file);
            if (o == null) {
                continue;
            }
            final String id = o.path(CellOutcomeCodec.CELL).path(CellOutcomeCodec.ID)
                    .asText(exportDir.relativize(file.getParent()).toString());
            final long cellValid = o.path(CellOutcomeCodec.COUNTS).path(CellOutcomeCodec.VALID).asLong();
            final long cellErrors = o.path(CellOutcomeCodec.COUNTS).path(CellOutcomeCodec.ERRORS).asLong();
            final LinkedHashMap<String, Object> cell = new LinkedHashMap<>();
            cell.put("id", id);
            cell.put("status", o.path(CellOutcomeCodec.STATUS).asText());
            final JsonNode error = o.path(CellOutcomeCodec.ERROR);
            cell.put("error", error.isTextual() ? error.asText() : null);
            cell.put("warnings", o.path(CellOutcomeCodec.WARNINGS).size());
            cell.put("requests", cellValid + cellErrors);
            cell.put("errors", cellErrors);
            cell.put(METRICS, new LinkedHashMap<>(KeyMetrics.of(file.getParent(), KeyMetrics.errorRate(cellValid, cellErrors))));
            cells.add(cell);
            o.path(CellOutcomeCodec.HOOKS).forEach(h -> {
                final LinkedHashMap<String, Object> hook = new LinkedHashMap<>();
                hook.put("cell", id);
                hook.put("hook", h.path(CellOutcomeCodec.HOOK).asText());
                hook.put("url", h.path(CellOutcomeCodec.URL).asText());
                hook.put("result", h.path(CellOutcomeCodec.RESULT).asText());
                final JsonNode statusCode = h.path(CellOutcomeCodec.STATUS_CODE);
                hook.put("statusCode", statusCode.isNumber() ? statusCode.asInt() : null);
                hooks.add(hook);
            });
        }
        out.put(CELLS, cells);
        out.put(HOOKS, hooks);
        out.put(METRICS, new LinkedHashMap<>(KeyMetrics.ofRun(exportDir)));
        final LinkedHashMap<String, LinkedHashMap<String, Double>> points = new LinkedHashMap<>();
        KeyMetrics.byPoint(exportDir).forEach((point, m) -> points.put(point, new LinkedHashMap<>(m)));
        out.put(POINT_METRICS, points);
        final SearchCapacity capacity = SearchCapacity.in(exportDir);
        out.put(CAPACITY, capacity == null ? null : capacity.toMap());
        out.put(ARCHIVED, new ArrayList<>(archived));
        return out;
    }

    /**
     * The key metrics a build contributes to the trend of one call id, from the summaries of its calls keyed by
     * archive folder ({@link CallFolders#prefix}): the id's merged run when there is one, else the first of its
     * calls that has any.
     */
    public static Map<String, Double> trendMetrics(final Map<String, ? extends Map<String, Object>> calls,
                                                   final String id) {
        final Map<String, Object> merged = calls.get(CallFolders.aggregate(id).prefix());
        if (merged != null && !metrics(merged).isEmpty()) {
            return metrics(merged);
        }
        return calls.entrySet().stream().filter(e -> id.equals(CallFolders.idOf(e.getKey())))
                .map(e -> metrics(e.getValue())).filter(m -> !m.isEmpty()).findFirst().orElse(Map.of());
    }

    /**
     * The key metrics per sweep point a build contributes to the trend of one call id, chosen as
     * {@link #trendMetrics} chooses; a summary recorded before the points were (an older build) is its one point.
     */
    public static Map<String, Map<String, Double>> trendPoints(final Map<String, ? extends Map<String, Object>> calls,
                                                               final String id) {
        final Map<String, Object> merged = calls.get(CallFolders.aggregate(id).prefix());
        if (merged != null && !points(merged).isEmpty()) {
            return points(merged);
        }
        return calls.entrySet().stream().filter(e -> id.equals(CallFolders.idOf(e.getKey())))
                .map(e -> points(e.getValue())).filter(m -> !m.isEmpty()).findFirst().orElse(Map.of());
    }

    /** The summary's key metrics per sweep point, typed (an empty map when absent). */
    @SuppressWarnings("unchecked")
    static Map<String, Map<String, Double>> points(final Map<String, Object> summary) {
        final Object p = summary.get(POINT_METRICS);
        if (p instanceof Map<?, ?> map && !map.isEmpty()) {
            return (Map<String, Map<String, Double>>) map;
        }
        return metrics(summary).isEmpty() ? Map.of() : Map.of(KeyMetrics.SINGLE_POINT, metrics(summary));
    }

    /** The call ids of a build's calls (keyed by archive folder), in the order they first ran. */
    public static List<String> ids(final Map<String, ?> calls) {
        return calls.keySet().stream().map(CallFolders::idOf).filter(java.util.Objects::nonNull).distinct().toList();
    }

    /** The summary's key metrics, typed (an empty map when absent). */
    @SuppressWarnings("unchecked")
    public static Map<String, Double> metrics(final Map<String, Object> summary) {
        final Object m = summary.get(METRICS);
        return m instanceof Map<?, ?> map ? (Map<String, Double>) map : Map.of();
    }

}
