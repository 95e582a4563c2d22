package io.aiperf.jenkins;

import io.aiperf.engine.ci.StepSummary;
import io.aiperf.engine.ci.Verdict;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.kohsuke.stapler.export.CustomExportedBean;

/**
 * One call's summary as the build keeps it in {@code build.xml}: the step's returned map ({@link StepSummary}) read
 * into typed fields once, so the record says what it holds and an old record's map ({@link AiperfBuildAction}'s
 * {@code readResolve}) reads the same way. The rows of the engine's tables (gate rules, cells, hooks, the
 * comparison) and the capacity search keep the engine's columns as small maps: the pages print them column by
 * column and nothing else reads them. Only JDK collections and the engine's {@link Verdict} enum, which Jenkins'
 * class filter lets XStream read; {@code api/json} shows it as the step's map.
 */
public final class CallSummary implements CustomExportedBean, Serializable {
    private static final long serialVersionUID = 1L;

    private final String id;
    private final String exportDir;
    private final Verdict verdict;
    private final int exitCode;
    private final ArrayList<String> reasons;
    private final ArrayList<String> warnings;
    private final String gate;
    private final ArrayList<LinkedHashMap<String, Object>> gateRules;
    private final ArrayList<LinkedHashMap<String, Object>> cells;
    private final ArrayList<LinkedHashMap<String, Object>> hooks;
    private final LinkedHashMap<String, Double> metrics;
    private final LinkedHashMap<String, LinkedHashMap<String, Double>> pointMetrics;
    private final LinkedHashMap<String, Object> capacity;
    private final ArrayList<String> archived;
    private final ArrayList<Integer> baselineBuilds;
    private final String baselineJob;
    private final ArrayList<LinkedHashMap<String, Object>> comparison;

    private CallSummary(final Map<String, Object> m) {
        id = text(m.get(StepSummary.ID));
        exportDir = text(m.get(StepSummary.EXPORT_DIR));
        verdict = Verdict.of(m.get(StepSummary.VERDICT));
        exitCode = m.get(StepSummary.EXIT_CODE) instanceof Number n ? n.intValue() : 0;
        reasons = strings(m.get(StepSummary.REASONS));
        warnings = strings(m.get(StepSummary.WARNINGS));
        gate = text(m.get(StepSummary.GATE));
        gateRules = rows(m.get(StepSummary.GATE_RULES));
        cells = rows(m.get(StepSummary.CELLS));
        hooks = rows(m.get(StepSummary.HOOKS));
        metrics = numbers(m.get(StepSummary.METRICS));
        pointMetrics = new LinkedHashMap<>();
        if (m.get(StepSummary.POINT_METRICS) instanceof Map<?, ?> points) {
            points.forEach((point, values) -> pointMetrics.put(String.valueOf(point), numbers(values)));
        }
        capacity = m.get(StepSummary.CAPACITY) instanceof Map<?, ?> c ? row(c) : null;
        archived = strings(m.get(StepSummary.ARCHIVED));
        baselineBuilds = new ArrayList<>();
        if (m.get(StepSummary.BASELINE_BUILDS) instanceof List<?> builds) {
            builds.stream().filter(Number.class::isInstance).forEach(b -> baselineBuilds.add(((Number) b).intValue()));
        }
        baselineJob = text(m.get(StepSummary.BASELINE_JOB));
        comparison = rows(m.get(StepSummary.COMPARISON));
    }

    /** The typed record of a step's summary map (or of an older build's stored map); the map is not kept. */
    static CallSummary of(final Map<String, Object> summary) {
        return new CallSummary(summary);
    }

    /** The summary as the step returned it: {@code api/json} shows this, and the engine's trend reads it. */
    public LinkedHashMap<String, Object> toMap() {
        final LinkedHashMap<String, Object> out = new LinkedHashMap<>();
        out.put(StepSummary.VERDICT, verdict.name());
        out.put(StepSummary.EXIT_CODE, exitCode);
        out.put(StepSummary.REASONS, reasons);
        out.put(StepSummary.WARNINGS, warnings);
        out.put(StepSummary.GATE, gate);
        out.put(StepSummary.GATE_RULES, gateRules);
        out.put(StepSummary.CELLS, cells);
        out.put(StepSummary.HOOKS, hooks);
        out.put(StepSummary.METRICS, metrics);
        out.put(StepSummary.POINT_METRICS, pointMetrics);
        out.put(StepSummary.CAPACITY, capacity);
        out.put(StepSummary.ARCHIVED, archived);
        out.put(StepSummary.ID, id);
        out.put(StepSummary.EXPORT_DIR, exportDir);
        out.put(StepSummary.BASELINE_BUILDS, baselineBuilds);
        out.put(StepSummary.BASELINE_JOB, baselineJob);
        out.put(StepSummary.COMPARISON, comparison);
        return AiperfBuildAction.copy(out); // a reader may change its map, never this record
    }

    @Override
    public Object toExportedObject() {
        return toMap();
    }

    public String getId() {
        return id;
    }

    public String getExportDir() {
        return exportDir;
    }

    public Verdict getVerdict() {
        return verdict;
    }

    public int getExitCode() {
        return exitCode;
    }

    public List<String> getReasons() {
        return Collections.unmodifiableList(reasons);
    }

    public List<String> getWarnings() {
        return Collections.unmodifiableList(warnings);
    }

    /** The gate's verdict, or {@link StepSummary#NO_GATE}. */
    public String getGate() {
        return gate;
    }

    public List<Map<String, Object>> getGateRules() {
        return rows(gateRules);
    }

    public List<Map<String, Object>> getCells() {
        return rows(cells);
    }

    public List<Map<String, Object>> getHooks() {
        return rows(hooks);
    }

    /** The key metrics, by name. */
    public Map<String, Double> getMetrics() {
        return Collections.unmodifiableMap(metrics);
    }

    /** The capacity search's result, or null when the call ran none. */
    public Map<String, Object> getCapacity() {
        return capacity == null ? null : Collections.unmodifiableMap(capacity);
    }

    public List<String> getArchived() {
        return Collections.unmodifiableList(archived);
    }

    /** The build numbers the gate compared with, newest first. */
    public List<Integer> getBaselineBuilds() {
        return Collections.unmodifiableList(baselineBuilds);
    }

    /** The job those builds belong to, or null for the build's own job. */
    public String getBaselineJob() {
        return baselineJob;
    }

    /** One row per key metric against the baseline. */
    public List<Map<String, Object>> getComparison() {
        return rows(comparison);
    }

    /** Rows read-only to the pages that show them, each row too. */
    private static List<Map<String, Object>> rows(final List<? extends Map<String, Object>> rows) {
        return rows.stream().map(Collections::unmodifiableMap).toList();
    }

    private static String text(final Object value) {
        return value == null ? null : String.valueOf(value);
    }

    private static ArrayList<String> strings(final Object value) {
        final ArrayList<String> out = new ArrayList<>();
        if (value instanceof List<?> l) {
            l.forEach(v -> out.add(String.valueOf(v)));
        }
        return out;
    }

    private static LinkedHashMap<String, Double> numbers(final Object value) {
        final LinkedHashMap<String, Double> out = new LinkedHashMap<>();
        if (value instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                if (v instanceof Number n) {
                    out.put(String.valueOf(k), n.doubleValue());
                }
            });
        }
        return out;
    }

    private static ArrayList<LinkedHashMap<String, Object>> rows(final Object value) {
        final ArrayList<LinkedHashMap<String, Object>> out = new ArrayList<>();
        if (value instanceof List<?> l) {
            l.stream().filter(Map.class::isInstance).forEach(r -> out.add(row((Map<?, ?>) r)));
        }
        return out;
    }

    /** A row's columns: strings, numbers, booleans or nulls as the engine wrote them (deep-copied). */
    private static LinkedHashMap<String, Object> row(final Map<?, ?> m) {
        final LinkedHashMap<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), AiperfBuildAction.copy(v)));
        return out;
    }
}
