package io.aiperf.engine.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.export.AtomicFiles;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * What a capacity search found (src-docs/capacity.md): {@code search_result.json} and the console's closing table.
 *
 * @param capacity the highest knob value that met every SLO, or empty when none did
 * @param nextMissed the lowest value that did not (missed, invalid or failed), or empty
 * @param status converged, probe_budget_spent or cancelled
 */
public record SearchResult(SearchSpec spec, List<ProbedPoint> points, OptionalInt capacity, OptionalInt nextMissed,
                           String status, List<Planner> tierPlanners) {
    public static final String FILE_NAME = io.aiperf.engine.gate.SearchOutcome.FILE_NAME;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** A search without SLA tiers. */
    public SearchResult(final SearchSpec spec, final List<ProbedPoint> points, final OptionalInt capacity,
                        final OptionalInt nextMissed, final String status) {
        this(spec, points, capacity, nextMissed, status, List.of());
    }

    /**
     * The best point by the objective among those that meet the SLOs (upstream's best trial), or null without an
     * objective or such a point.
     */
    public ProbedPoint best() {
        if (spec.objective() == null) {
            return null;
        }
        ProbedPoint best = null;
        for (final ProbedPoint p : points) {
            if (p.decision() == ProbedPoint.Decision.MEETS
                    && (best == null ? !Double.isNaN(p.objective()) : spec.objective().better(p.objective(),
                    best.objective()))) {
                best = p;
            }
        }
        return best;
    }

    public ObjectNode json() {
        final ObjectNode root = JSON.createObjectNode();
        final ObjectNode search = root.putObject("search");
        search.put("knob", spec.knob()).put("min", spec.min()).put("max", spec.max())
                .put("planner", spec.planner()).put("max_probes", spec.maxProbes()).put("max_trials", spec.maxTrials())
                .put("confidence", spec.confidence())
                .put("boundary_band_pct", 100 * spec.boundaryBand()).put("max_client_lateness_ms", spec.maxClientLateness());
        if (spec.recipe() != null) {
            search.put("recipe", spec.recipe());
        }
        slas(search.putArray("slas"), spec.slas());
        SearchExtras.spec(search, spec);
        root.put("status", status);
        if (capacity.isPresent()) {
            root.put("capacity", capacity.getAsInt());
            final ProbedPoint at = pointAt(capacity.getAsInt());
            root.set("at_capacity", point(at));
        } else {
            root.putNull("capacity");
        }
        root.putObject("capacity_bounds").put("low", capacity.orElse(0)).put("high", capacityHigh());
        if (nextMissed.isPresent()) {
            root.put("next_missed", nextMissed.getAsInt());
        } else {
            root.putNull("next_missed");
        }
        final ArrayNode probed = root.putArray("points");
        points.forEach(p -> probed.add(point(p)));
        final ArrayNode path = root.putArray("path");
        points.forEach(p -> path.add(p.value()));
        SearchExtras.result(root, this);
        return root;
    }

    /**
     * The highest value the capacity can have: one below the lowest point that clearly missed the SLOs (an
     * inconclusive, invalid or failed point says nothing about it), else the top of the range. Equal to the
     * capacity when the boundary was decided; above it when the probe budget ran out or a point was inconclusive.
     */
    public int capacityHigh() {
        final int high = points.stream().filter(p -> p.decision() == ProbedPoint.Decision.MISSES)
                .mapToInt(ProbedPoint::value).min().orElse(spec.max() + 1) - 1;
        return Math.max(high, capacity.orElse(0));
    }

    static void slas(final ArrayNode into, final List<Sla> slas) {
        slas.forEach(s -> into.addObject().put("metric", s.metric()).put("stat", s.stat()).put("op", s.op())
                .put("threshold", s.threshold()));
    }

    /** Written whole or not at all. */
    public void write(final Path file) {
        try {
            AtomicFiles.write(file, JSON.writeValueAsBytes(json()));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One row per probed point in probe order, then the capacity and the next value that missed. */
    public void printTable(final PrintStream out) {
        out.println();
        out.println(String.format(Locale.ROOT, "Capacity search: %s %d..%d, SLOs %s", spec.knob(), spec.min(),
                spec.max(), spec.slas().isEmpty() ? "by tier (below)"
                        : String.join(", ", spec.slas().stream().map(Sla::spec).toList())));
        final StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%3s  %11s", "#", spec.knob()));
        spec.slas().forEach(s -> head.append(String.format(Locale.ROOT, "  %24s  %7s",
                s.metric().length() > 20 ? s.metric().substring(0, 20) + " " + s.stat() : s.metric() + " " + s.stat(),
                "margin")));
        head.append(String.format(Locale.ROOT, "  %10s  %6s  %-8s  %s", "req/s", "trials", "validity", "decision"));
        out.println(head);
        for (final ProbedPoint p : points) {
            final StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%3d  %11d", p.order(), p.value()));
            for (int i = 0; i < spec.slas().size(); i++) {
                final double v = p.values().get(i);
                row.append(String.format(Locale.ROOT, "  %24s  %7s", Double.isNaN(v) ? "N/A"
                        : String.format(Locale.ROOT, "%.2f", v), percent(spec.slas().get(i).margin(v))));
            }
            row.append(String.format(Locale.ROOT, "  %10s  %6d  %-8s  %s", Double.isNaN(p.throughput()) ? "N/A"
                    : String.format(Locale.ROOT, "%.2f", p.throughput()), p.trials().size(),
                    p.validity() == null ? "-" : p.validity(),
                    p.decision().wireName()));
            out.println(row);
        }
        final String open = capacityHigh() > capacity.orElse(0)
                ? String.format(Locale.ROOT, "; it may be up to %d (not decided above %d)", capacityHigh(),
                        capacity.orElse(0)) : "";
        final int trials = points.stream().mapToInt(p -> p.trials().size()).sum();
        SearchExtras.printTable(out, this);
        out.println(capacity.isPresent()
                ? String.format(Locale.ROOT, "Capacity: %s %d%s%s (%s, %d points probed, %d trials)", spec.knob(),
                        capacity.getAsInt(), nextMissed.isPresent() ? "; " + nextMissed.getAsInt() + " "
                                + notMet(pointAt(nextMissed.getAsInt())) : "", open, status.replace('_', ' '), points.size(), trials)
                : String.format(Locale.ROOT, "Capacity: none; no %s in %d..%d met the SLOs%s (%s, %d points probed, "
                        + "%d trials)", spec.knob(), spec.min(), spec.max(), open, status.replace('_', ' '),
                        points.size(), trials));
    }

    static String notMet(final ProbedPoint p) {
        return switch (p.decision()) {
            case INCONCLUSIVE -> "was inconclusive after " + p.trials().size() + " trials";
            case INVALID -> "was invalid";
            case FAILED -> "failed";
            default -> "does not meet the SLOs";
        };
    }

    ProbedPoint pointAt(final int value) {
        return points.stream().filter(p -> p.value() == value).findFirst().orElseThrow();
    }

    ObjectNode point(final ProbedPoint p) {
        final ObjectNode o = JSON.createObjectNode();
        o.put("order", p.order()).put(spec.knob(), p.value()).put("decision", p.decision().wireName())
                .put("artifact_dir", p.artifactDir());
        if (p.validity() == null) {
            o.putNull("validity");
        } else {
            o.put("validity", p.validity());
        }
        number(o, "request_throughput", p.throughput());
        o.put("trials", p.trials().size());
        final ArrayNode slos = o.putArray("slas");
        for (int i = 0; i < spec.slas().size(); i++) {
            final Sla s = spec.slas().get(i);
            final ObjectNode slo = slos.addObject().put("sla", s.spec());
            number(slo, "value", p.values().get(i));
            number(slo, "margin", s.margin(p.values().get(i)));
            slo.put("met", s.met(p.values().get(i)));
            if (i < p.judgements().size()) {
                final SloJudgement j = p.judgements().get(i);
                slo.put("verdict", j.verdict().name().toLowerCase(Locale.ROOT));
                slo.put("decided_by", j.byValue() ? "value" : "requests");
                if (!j.byValue()) {
                    bound(slo, "low", j.low());
                    bound(slo, "high", j.high());
                }
            }
        }
        if (p.reason() != null) {
            o.put("reason", p.reason());
        }
        SearchExtras.point(o, this, p);
        final ArrayNode trials = o.putArray("trial_results");
        for (final Trial t : p.trials()) {
            final ObjectNode to = trials.addObject().put("trial", t.trial()).put("artifact_dir", t.artifactDir());
            if (t.validity() == null) {
                to.putNull("validity");
            } else {
                to.put("validity", t.validity());
            }
            number(to, "request_throughput", t.throughput());
            number(to, "client_lateness_p99_ms", t.lateness());
            to.put("client_limited", t.clientLimited(spec.maxClientLateness()));
            final ArrayNode tv = to.putArray("values");
            t.values().forEach(v -> {
                if (Double.isNaN(v)) {
                    tv.addNull();
                } else {
                    tv.add(v);
                }
            });
            if (t.error() != null) {
                to.put("error", t.error());
            }
        }
        return o;
    }

    /** A one-sided bound; null where the requests were too few to bound the statistic on that side. */
    private static void bound(final ObjectNode o, final String key, final double v) {
        number(o, key, Double.isInfinite(v) ? Double.NaN : v);
    }

    static void number(final ObjectNode o, final String key, final double v) {
        if (Double.isNaN(v)) {
            o.putNull(key);
        } else {
            o.put(key, v);
        }
    }

    private static String percent(final double margin) {
        return Double.isNaN(margin) ? "N/A" : String.format(Locale.ROOT, "%+.0f%%", 100 * margin);
    }
}
