package io.aiperf.engine.search;

import static io.aiperf.engine.summary.SearchResultCodec.BEST;
import static io.aiperf.engine.summary.SearchResultCodec.BINDING_CONSTRAINT;
import static io.aiperf.engine.summary.SearchResultCodec.CAPACITY;
import static io.aiperf.engine.summary.SearchResultCodec.CONVERGED;
import static io.aiperf.engine.summary.SearchResultCodec.CONVERGENCE;
import static io.aiperf.engine.summary.SearchResultCodec.DECISION;
import static io.aiperf.engine.summary.SearchResultCodec.DIRECTION;
import static io.aiperf.engine.summary.SearchResultCodec.INITIAL_POINTS;
import static io.aiperf.engine.summary.SearchResultCodec.LABEL;
import static io.aiperf.engine.summary.SearchResultCodec.MARGIN;
import static io.aiperf.engine.summary.SearchResultCodec.MET;
import static io.aiperf.engine.summary.SearchResultCodec.METRIC;
import static io.aiperf.engine.summary.SearchResultCodec.MIN_RUNS;
import static io.aiperf.engine.summary.SearchResultCodec.MODE;
import static io.aiperf.engine.summary.SearchResultCodec.NEXT_MISSED;
import static io.aiperf.engine.summary.SearchResultCodec.OBJECTIVE;
import static io.aiperf.engine.summary.SearchResultCodec.PERCENTILE_POOLING;
import static io.aiperf.engine.summary.SearchResultCodec.RANDOM_SEED;
import static io.aiperf.engine.summary.SearchResultCodec.REASON;
import static io.aiperf.engine.summary.SearchResultCodec.SLA;
import static io.aiperf.engine.summary.SearchResultCodec.SLAS;
import static io.aiperf.engine.summary.SearchResultCodec.SLA_TIERS;
import static io.aiperf.engine.summary.SearchResultCodec.STAT;
import static io.aiperf.engine.summary.SearchResultCodec.THRESHOLD;
import static io.aiperf.engine.summary.SearchResultCodec.TIERS;
import static io.aiperf.engine.summary.SearchResultCodec.VALUE;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * The parts of {@code search_result.json} and the console's table that upstream's further search options add
 * (src-docs/capacity.md): the objective and its best point, the SLA tiers and their capacities, percentile pooling,
 * the convergence of each point's trials, and the Bayesian settings recorded. Stateless.
 */
final class SearchExtras {
    private SearchExtras() {
    }

    /** Into {@code search}: the settings. */
    static void spec(final ObjectNode search, final SearchSpec spec) {
        if (spec.objective() != null) {
            search.putObject(OBJECTIVE).put(METRIC, spec.objective().metric())
                    .put(STAT, spec.objective().stat()).put(DIRECTION, spec.objective().direction());
        }
        search.put(PERCENTILE_POOLING, spec.pooling());
        if (spec.initialPoints() != null) {
            search.put(INITIAL_POINTS, spec.initialPoints());
        }
        if (spec.randomSeed() != null) {
            search.put(RANDOM_SEED, spec.randomSeed());
        }
        if (!spec.tiers().isEmpty()) {
            final ArrayNode tiers = search.putArray(SLA_TIERS);
            for (final SearchSpec.SlaTier t : spec.tiers()) {
                SearchResult.slas(tiers.addObject().put(LABEL, t.label()).putArray(SLAS), t.slas());
            }
        }
        if (spec.convergence() != null) {
            search.putObject(CONVERGENCE).put(METRIC, spec.convergence().metric())
                    .put(STAT, spec.convergence().stat()).put(MODE, spec.convergence().mode())
                    .put(THRESHOLD, spec.convergence().threshold())
                    .put(MIN_RUNS, spec.convergence().minRuns(spec.maxTrials()));
        }
    }

    /** Into the root: the best point by the objective, and each tier's capacity. */
    static void result(final ObjectNode root, final SearchResult r) {
        if (r.spec().objective() != null) {
            final ProbedPoint best = r.best();
            if (best == null) {
                root.putNull(BEST);
            } else {
                final ObjectNode b = root.putObject(BEST).put(r.spec().knob(), best.value());
                SearchResult.number(b, OBJECTIVE, best.objective());
            }
        }
        if (r.tierPlanners().isEmpty()) {
            return;
        }
        final ArrayNode tiers = root.putArray(TIERS);
        for (int i = 0; i < r.tierPlanners().size(); i++) {
            final Planner p = r.tierPlanners().get(i);
            final ObjectNode t = tiers.addObject().put(LABEL, r.spec().tiers().get(i).label());
            put(t, CAPACITY, p.capacity());
            put(t, NEXT_MISSED, p.lowestMissed());
            t.put(CONVERGED, p.converged());
            t.put(BINDING_CONSTRAINT, binding(r, i, p.lowestMissed()));
        }
    }

    /** Into a point: its objective, convergence and each tier's decision on it. */
    static void point(final ObjectNode o, final SearchResult r, final ProbedPoint p) {
        if (r.spec().objective() != null) {
            SearchResult.number(o, OBJECTIVE, p.objective());
        }
        if (p.convergence() != null) {
            o.set(CONVERGENCE, p.convergence());
        }
        if (p.tiers().isEmpty()) {
            return;
        }
        final ArrayNode tiers = o.putArray(TIERS);
        for (int i = 0; i < p.tiers().size(); i++) {
            final ProbedPoint t = p.tiers().get(i);
            final ObjectNode to = tiers.addObject().put(LABEL, r.spec().tiers().get(i).label())
                    .put(DECISION, t.decision().wireName());
            if (t.reason() != null) {
                to.put(REASON, t.reason());
            }
            final ArrayNode slas = to.putArray(SLAS);
            final List<Sla> list = slasOf(r.spec(), i);
            for (int k = 0; k < list.size() && k < t.values().size(); k++) {
                final ObjectNode slo = slas.addObject().put(SLA, list.get(k).spec());
                SearchResult.number(slo, VALUE, t.values().get(k));
                SearchResult.number(slo, MARGIN, list.get(k).margin(t.values().get(k)));
                slo.put(MET, list.get(k).met(t.values().get(k)));
            }
        }
    }

    /** Before the capacity line: the best point and the tiers' capacities. */
    static void printTable(final PrintStream out, final SearchResult r) {
        final SearchSpec.Objective o = r.spec().objective();
        if (o != null) {
            final ProbedPoint best = r.best();
            out.println(best == null ? String.format(Locale.ROOT, "Best %s %s (%s): none; no point that met the SLOs "
                    + "has a value of it", o.metric(), o.stat(), o.direction())
                    : String.format(Locale.ROOT, "Best %s %s (%s): %.2f at %s %d", o.metric(), o.stat(), o.direction(),
                    best.objective(), r.spec().knob(), best.value()));
        }
        for (int i = 0; i < r.tierPlanners().size(); i++) {
            final Planner p = r.tierPlanners().get(i);
            out.println(String.format(Locale.ROOT, "Tier %s (%s): capacity %s%s", r.spec().tiers().get(i).label(),
                    String.join(", ", slasOf(r.spec(), i).stream().map(Sla::spec).toList()),
                    p.capacity().isPresent() ? r.spec().knob() + " " + p.capacity().getAsInt() : "none",
                    p.lowestMissed().isPresent() ? "; " + p.lowestMissed().getAsInt() + " "
                            + SearchResult.notMet(r.pointAt(p.lowestMissed().getAsInt()).tiers().get(i)) : ""));
        }
    }

    /** A tier's SLOs as judged: its own, then every --search-sla. */
    static List<Sla> slasOf(final SearchSpec spec, final int tier) {
        final List<Sla> slas = new ArrayList<>(spec.tiers().get(tier).slas());
        slas.addAll(spec.slas());
        return slas;
    }

    /** The first SLO the tier's lowest missed point missed, as upstream's binding constraint, or "". */
    private static String binding(final SearchResult r, final int tier, final OptionalInt missed) {
        if (missed.isEmpty()) {
            return "";
        }
        final ProbedPoint p = r.pointAt(missed.getAsInt()).tiers().get(tier);
        final List<Sla> slas = slasOf(r.spec(), tier);
        for (int k = 0; k < slas.size() && k < p.values().size(); k++) {
            if (!slas.get(k).met(p.values().get(k))) {
                return slas.get(k).spec();
            }
        }
        return p.decision().wireName();
    }

    private static void put(final ObjectNode o, final String key, final OptionalInt v) {
        if (v.isPresent()) {
            o.put(key, v.getAsInt());
        } else {
            o.putNull(key);
        }
    }
}
