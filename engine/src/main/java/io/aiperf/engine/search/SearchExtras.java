package io.aiperf.engine.search;

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
            search.putObject("objective").put("metric", spec.objective().metric())
                    .put("stat", spec.objective().stat()).put("direction", spec.objective().direction());
        }
        search.put("percentile_pooling", spec.pooling());
        if (spec.initialPoints() != null) {
            search.put("initial_points", spec.initialPoints());
        }
        if (spec.randomSeed() != null) {
            search.put("random_seed", spec.randomSeed());
        }
        if (!spec.tiers().isEmpty()) {
            final ArrayNode tiers = search.putArray("sla_tiers");
            for (final SearchSpec.SlaTier t : spec.tiers()) {
                SearchResult.slas(tiers.addObject().put("label", t.label()).putArray("slas"), t.slas());
            }
        }
        if (spec.convergence() != null) {
            search.putObject("convergence").put("metric", spec.convergence().metric())
                    .put("stat", spec.convergence().stat()).put("mode", spec.convergence().mode())
                    .put("threshold", spec.convergence().threshold())
                    .put("min_runs", spec.convergence().minRuns(spec.maxTrials()));
        }
    }

    /** Into the root: the best point by the objective, and each tier's capacity. */
    static void result(final ObjectNode root, final SearchResult r) {
        if (r.spec().objective() != null) {
            final ProbedPoint best = r.best();
            if (best == null) {
                root.putNull("best");
            } else {
                final ObjectNode b = root.putObject("best").put(r.spec().knob(), best.value());
                SearchResult.number(b, "objective", best.objective());
            }
        }
        if (r.tierPlanners().isEmpty()) {
            return;
        }
        final ArrayNode tiers = root.putArray("tiers");
        for (int i = 0; i < r.tierPlanners().size(); i++) {
            final Planner p = r.tierPlanners().get(i);
            final ObjectNode t = tiers.addObject().put("label", r.spec().tiers().get(i).label());
            put(t, "capacity", p.capacity());
            put(t, "next_missed", p.lowestMissed());
            t.put("converged", p.converged());
            t.put("binding_constraint", binding(r, i, p.lowestMissed()));
        }
    }

    /** Into a point: its objective, convergence and each tier's decision on it. */
    static void point(final ObjectNode o, final SearchResult r, final ProbedPoint p) {
        if (r.spec().objective() != null) {
            SearchResult.number(o, "objective", p.objective());
        }
        if (p.convergence() != null) {
            o.set("convergence", p.convergence());
        }
        if (p.tiers().isEmpty()) {
            return;
        }
        final ArrayNode tiers = o.putArray("tiers");
        for (int i = 0; i < p.tiers().size(); i++) {
            final ProbedPoint t = p.tiers().get(i);
            final ObjectNode to = tiers.addObject().put("label", r.spec().tiers().get(i).label())
                    .put("decision", t.decision().wireName());
            if (t.reason() != null) {
                to.put("reason", t.reason());
            }
            final ArrayNode slas = to.putArray("slas");
            final List<Sla> list = slasOf(r.spec(), i);
            for (int k = 0; k < list.size() && k < t.values().size(); k++) {
                final ObjectNode slo = slas.addObject().put("sla", list.get(k).spec());
                SearchResult.number(slo, "value", t.values().get(k));
                SearchResult.number(slo, "margin", list.get(k).margin(t.values().get(k)));
                slo.put("met", list.get(k).met(t.values().get(k)));
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
