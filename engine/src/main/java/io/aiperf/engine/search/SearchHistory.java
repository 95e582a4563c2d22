package io.aiperf.engine.search;

import static io.aiperf.engine.summary.SearchHistoryCodec.BEST_TRIALS;
import static io.aiperf.engine.summary.SearchHistoryCodec.BOUNDARY_SUMMARY;
import static io.aiperf.engine.summary.SearchHistoryCodec.CONFIG;
import static io.aiperf.engine.summary.SearchHistoryCodec.CONVERGENCE_REASON;
import static io.aiperf.engine.summary.SearchHistoryCodec.DIRECTION;
import static io.aiperf.engine.summary.SearchHistoryCodec.FEASIBLE;
import static io.aiperf.engine.summary.SearchHistoryCodec.FEASIBLE_COUNT;
import static io.aiperf.engine.summary.SearchHistoryCodec.FEASIBLE_MAX;
import static io.aiperf.engine.summary.SearchHistoryCodec.FILTERS;
import static io.aiperf.engine.summary.SearchHistoryCodec.FIRST_BREACH;
import static io.aiperf.engine.summary.SearchHistoryCodec.HI;
import static io.aiperf.engine.summary.SearchHistoryCodec.IMPROVEMENT_PATIENCE;
import static io.aiperf.engine.summary.SearchHistoryCodec.INFEASIBLE_MIN;
import static io.aiperf.engine.summary.SearchHistoryCodec.ITERATIONS;
import static io.aiperf.engine.summary.SearchHistoryCodec.ITERATION_IDX;
import static io.aiperf.engine.summary.SearchHistoryCodec.KIND;
import static io.aiperf.engine.summary.SearchHistoryCodec.LABEL;
import static io.aiperf.engine.summary.SearchHistoryCodec.LO;
import static io.aiperf.engine.summary.SearchHistoryCodec.MAX_ITERATIONS;
import static io.aiperf.engine.summary.SearchHistoryCodec.METRIC;
import static io.aiperf.engine.summary.SearchHistoryCodec.METRIC_TAG;
import static io.aiperf.engine.summary.SearchHistoryCodec.NON_MONOTONIC_WARNING;
import static io.aiperf.engine.summary.SearchHistoryCodec.N_INITIAL_POINTS;
import static io.aiperf.engine.summary.SearchHistoryCodec.OBJECTIVES;
import static io.aiperf.engine.summary.SearchHistoryCodec.OBJECTIVE_VALUE;
import static io.aiperf.engine.summary.SearchHistoryCodec.OBJECTIVE_VALUES;
import static io.aiperf.engine.summary.SearchHistoryCodec.OBSERVED;
import static io.aiperf.engine.summary.SearchHistoryCodec.OP;
import static io.aiperf.engine.summary.SearchHistoryCodec.OUTCOME_CONSTRAINTS;
import static io.aiperf.engine.summary.SearchHistoryCodec.PARETO_RANK;
import static io.aiperf.engine.summary.SearchHistoryCodec.PATH;
import static io.aiperf.engine.summary.SearchHistoryCodec.PLANNER;
import static io.aiperf.engine.summary.SearchHistoryCodec.PLATEAU_THRESHOLD;
import static io.aiperf.engine.summary.SearchHistoryCodec.PLATEAU_WINDOW;
import static io.aiperf.engine.summary.SearchHistoryCodec.RANDOM_SEED;
import static io.aiperf.engine.summary.SearchHistoryCodec.RECIPE;
import static io.aiperf.engine.summary.SearchHistoryCodec.SEARCH_SPACE;
import static io.aiperf.engine.summary.SearchHistoryCodec.SLA_FILTERS;
import static io.aiperf.engine.summary.SearchHistoryCodec.STAT;
import static io.aiperf.engine.summary.SearchHistoryCodec.SWEPT_DIM_PATH;
import static io.aiperf.engine.summary.SearchHistoryCodec.THRESHOLD;
import static io.aiperf.engine.summary.SearchHistoryCodec.TIERS;
import static io.aiperf.engine.summary.SearchHistoryCodec.VALUE;
import static io.aiperf.engine.summary.SearchHistoryCodec.VARIATION_VALUES;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.export.AtomicFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code search_history.json}: a capacity search's trajectory in upstream AIPerf 0.13's shape (src-docs/capacity.md,
 * "Files"): the search's {@code config}, one {@code iterations} entry per probed point, the {@code best_trials}, the
 * {@code boundary_summary} on the searched knob, the {@code recipe} and the {@code convergence_reason}. Rewritten
 * after every point, so a search stopped half-way leaves the points it probed. Stateless.
 */
public final class SearchHistory {
    public static final String FILE_NAME = io.aiperf.engine.summary.ExportFiles.SEARCH_HISTORY_JSON;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** The objective of a search without one: the request throughput each point's table row shows. */
    private static final SearchSpec.Objective THROUGHPUT = new SearchSpec.Objective("request_throughput", "avg",
            SearchSpec.Objective.MAXIMIZE);

    private SearchHistory() {
    }

    /**
     * @param status the search's end ({@code converged}, {@code probe_budget_spent}, {@code cancelled}), or null
     *     while it runs
     */
    public static ObjectNode json(final SearchSpec spec, final List<ProbedPoint> points, final String status) {
        final ObjectNode root = JSON.createObjectNode();
        config(root.putObject(CONFIG), spec);
        final ArrayNode iterations = root.putArray(ITERATIONS);
        for (int i = 0; i < points.size(); i++) {
            final ProbedPoint p = points.get(i);
            final ObjectNode it = iterations.addObject().put(ITERATION_IDX, p.order() - 1);
            variation(it, spec, p);
            objectiveValues(it, spec, p);
            it.put(FEASIBLE, feasible(p)).put(NON_MONOTONIC_WARNING, nonMonotonic(points.subList(0, i + 1), p));
        }
        bestTrials(root, spec, points);
        boundary(root, spec, points);
        if (spec.recipe() == null) {
            root.putNull(RECIPE);
        } else {
            root.put(RECIPE, spec.recipe());
        }
        if (status == null) {
            root.putNull(CONVERGENCE_REASON);
        } else {
            // upstream's word for a spent budget; the others are this engine's statuses (src-docs/capacity.md)
            root.put(CONVERGENCE_REASON, status.equals("probe_budget_spent") ? MAX_ITERATIONS : status);
        }
        return root;
    }

    /** Written whole or not at all. */
    public static void write(final Path dir, final SearchSpec spec, final List<ProbedPoint> points,
                             final String status) {
        try {
            AtomicFiles.write(dir.resolve(FILE_NAME), JSON.writeValueAsBytes(json(spec, points, status)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void config(final ObjectNode c, final SearchSpec spec) {
        c.put(PLANNER, spec.planner());
        final SearchSpec.Objective o = objective(spec);
        c.putArray(OBJECTIVES).addObject().put(METRIC, o.metric()).put(STAT, o.stat())
                .put(DIRECTION, o.direction().toUpperCase(Locale.ROOT)).putNull(THRESHOLD);
        c.putArray(OUTCOME_CONSTRAINTS);
        c.put(MAX_ITERATIONS, spec.maxProbes());
        c.put(N_INITIAL_POINTS, spec.initialPoints() == null ? 1 : spec.initialPoints());
        if (spec.randomSeed() == null) {
            c.putNull(RANDOM_SEED);
        } else {
            c.put(RANDOM_SEED, spec.randomSeed());
        }
        // Bayesian optimisation's stopping knobs: bisection and grid stop on their own terms (null: not used)
        c.putNull(IMPROVEMENT_PATIENCE).putNull(PLATEAU_WINDOW).putNull(PLATEAU_THRESHOLD);
        c.putArray(SEARCH_SPACE).addObject().put(PATH, path(spec)).put(LO, (double) spec.min())
                .put(HI, (double) spec.max()).put(KIND, "int");
        filters(c.putArray(SLA_FILTERS), spec.slas());
        if (!spec.tiers().isEmpty()) {
            final ArrayNode tiers = c.putArray(TIERS);
            spec.tiers().forEach(t -> filters(tiers.addObject().put(LABEL, t.label()).putArray(FILTERS), t.slas()));
        }
    }

    private static void filters(final ArrayNode into, final List<Sla> slas) {
        slas.forEach(s -> into.addObject().put(METRIC_TAG, s.metric()).put(STAT, s.stat()).put(OP, s.op())
                .put(THRESHOLD, s.threshold()));
    }

    /** The knob as upstream's search space names it. */
    static String path(final SearchSpec spec) {
        return spec.knob().equals(SearchSpec.REQUEST_RATE) ? "phases.profiling.rate" : "phases.profiling.concurrency";
    }

    private static SearchSpec.Objective objective(final SearchSpec spec) {
        return spec.objective() == null ? THROUGHPUT : spec.objective();
    }

    private static double objectiveValue(final SearchSpec spec, final ProbedPoint p) {
        return spec.objective() == null ? p.throughput() : p.objective();
    }

    private static boolean feasible(final ProbedPoint p) {
        return p.decision() == ProbedPoint.Decision.MEETS;
    }

    private static void variation(final ObjectNode into, final SearchSpec spec, final ProbedPoint p) {
        into.putObject(VARIATION_VALUES).put(path(spec), p.value());
    }

    private static void objectiveValues(final ObjectNode into, final SearchSpec spec, final ProbedPoint p) {
        final double v = objectiveValue(spec, p);
        if (Double.isFinite(v)) {
            into.putArray(OBJECTIVE_VALUES).add(v);
        } else {
            into.putNull(OBJECTIVE_VALUES);
        }
    }

    /** A point that contradicts the knob's monotony: it met the SLOs above a point that missed, or the reverse. */
    private static boolean nonMonotonic(final List<ProbedPoint> sofar, final ProbedPoint p) {
        if (p.decision() != ProbedPoint.Decision.MEETS && p.decision() != ProbedPoint.Decision.MISSES) {
            return false;
        }
        return sofar.stream().anyMatch(q -> feasible(p)
                ? q.decision() == ProbedPoint.Decision.MISSES && q.value() < p.value()
                : feasible(q) && q.value() > p.value());
    }

    /** The best point by the objective among those that met the SLOs (among all scored when none did). */
    private static void bestTrials(final ObjectNode root, final SearchSpec spec, final List<ProbedPoint> points) {
        final SearchSpec.Objective o = objective(spec);
        final List<ProbedPoint> scored = points.stream().filter(p -> Double.isFinite(objectiveValue(spec, p)))
                .toList();
        final List<ProbedPoint> feasible = scored.stream().filter(SearchHistory::feasible).toList();
        final List<ProbedPoint> pool = feasible.isEmpty() ? scored : feasible;
        ProbedPoint best = null;
        for (final ProbedPoint p : pool) {
            if (best == null || o.better(objectiveValue(spec, p), objectiveValue(spec, best))) {
                best = p;
            }
        }
        if (best == null) {
            root.putNull(BEST_TRIALS);
            return;
        }
        final ObjectNode b = root.putArray(BEST_TRIALS).addObject().put(ITERATION_IDX, best.order() - 1);
        objectiveValues(b, spec, best);
        variation(b, spec, best);
        b.put(FEASIBLE, feasible(best)).put(FEASIBLE_COUNT, feasible.size()).put(PARETO_RANK, 0);
    }

    /** The highest knob value that met the SLOs and the lowest that did not, with the first SLO it broke. */
    private static void boundary(final ObjectNode root, final SearchSpec spec, final List<ProbedPoint> points) {
        if (points.isEmpty()) {
            root.putNull(BOUNDARY_SUMMARY);
            return;
        }
        final ObjectNode b = root.putObject(BOUNDARY_SUMMARY).put(SWEPT_DIM_PATH, path(spec));
        final ProbedPoint high = points.stream().filter(SearchHistory::feasible)
                .max(java.util.Comparator.comparingInt(ProbedPoint::value)).orElse(null);
        if (high == null) {
            b.putNull(FEASIBLE_MAX);
        } else {
            final ObjectNode f = b.putObject(FEASIBLE_MAX).put(VALUE, high.value())
                    .put(ITERATION_IDX, high.order() - 1);
            final double v = objectiveValue(spec, high);
            if (Double.isFinite(v)) {
                f.put(OBJECTIVE_VALUE, v);
            } else {
                f.putNull(OBJECTIVE_VALUE);
            }
        }
        final ProbedPoint low = points.stream().filter(p -> !feasible(p))
                .min(java.util.Comparator.comparingInt(ProbedPoint::value)).orElse(null);
        if (low == null) {
            b.putNull(INFEASIBLE_MIN);
            return;
        }
        final ObjectNode i = b.putObject(INFEASIBLE_MIN).put(VALUE, low.value()).put(ITERATION_IDX, low.order() - 1);
        for (int k = 0; k < spec.slas().size() && k < low.values().size(); k++) {
            final Sla s = spec.slas().get(k);
            final double observed = low.values().get(k);
            if (Double.isFinite(observed) && !s.met(observed)) {
                i.putObject(FIRST_BREACH).put(METRIC_TAG, s.metric()).put(STAT, s.stat()).put(OP, s.op())
                        .put(THRESHOLD, s.threshold()).put(OBSERVED, observed);
                return;
            }
        }
        i.putNull(FIRST_BREACH); // failed, invalid or inconclusive: no SLO was clearly broken
    }
}
