package io.aiperf.engine.search;

import static io.aiperf.engine.summary.SearchResultCodec.ADDED_WARMUP_REQUESTS;
import static io.aiperf.engine.summary.SearchResultCodec.ARTIFACT_DIR;
import static io.aiperf.engine.summary.SearchResultCodec.AT_CAPACITY;
import static io.aiperf.engine.summary.SearchResultCodec.BOUNDARY_BAND_PCT;
import static io.aiperf.engine.summary.SearchResultCodec.CAPACITY;
import static io.aiperf.engine.summary.SearchResultCodec.CAPACITY_BOUNDS;
import static io.aiperf.engine.summary.SearchResultCodec.CLIENT_LATENESS_P99_MS;
import static io.aiperf.engine.summary.SearchResultCodec.CLIENT_LIMITED;
import static io.aiperf.engine.summary.SearchResultCodec.CONFIDENCE;
import static io.aiperf.engine.summary.SearchResultCodec.DECIDED_BY;
import static io.aiperf.engine.summary.SearchResultCodec.DECISION;
import static io.aiperf.engine.summary.SearchResultCodec.ERROR;
import static io.aiperf.engine.summary.SearchResultCodec.HIGH;
import static io.aiperf.engine.summary.SearchResultCodec.KNOB;
import static io.aiperf.engine.summary.SearchResultCodec.LOW;
import static io.aiperf.engine.summary.SearchResultCodec.MARGIN;
import static io.aiperf.engine.summary.SearchResultCodec.MAX;
import static io.aiperf.engine.summary.SearchResultCodec.MAX_CLIENT_LATENESS_MS;
import static io.aiperf.engine.summary.SearchResultCodec.MAX_PROBES;
import static io.aiperf.engine.summary.SearchResultCodec.MAX_TRIALS;
import static io.aiperf.engine.summary.SearchResultCodec.MET;
import static io.aiperf.engine.summary.SearchResultCodec.METRIC;
import static io.aiperf.engine.summary.SearchResultCodec.MIN;
import static io.aiperf.engine.summary.SearchResultCodec.NEXT_MISSED;
import static io.aiperf.engine.summary.SearchResultCodec.OP;
import static io.aiperf.engine.summary.SearchResultCodec.ORDER;
import static io.aiperf.engine.summary.SearchResultCodec.PATH;
import static io.aiperf.engine.summary.SearchResultCodec.PLANNER;
import static io.aiperf.engine.summary.SearchResultCodec.POINTS;
import static io.aiperf.engine.summary.SearchResultCodec.REASON;
import static io.aiperf.engine.summary.SearchResultCodec.RECIPE;
import static io.aiperf.engine.summary.SearchResultCodec.REQUEST_THROUGHPUT;
import static io.aiperf.engine.summary.SearchResultCodec.SEARCH;
import static io.aiperf.engine.summary.SearchResultCodec.SLA;
import static io.aiperf.engine.summary.SearchResultCodec.SLAS;
import static io.aiperf.engine.summary.SearchResultCodec.STAT;
import static io.aiperf.engine.summary.SearchResultCodec.STATUS;
import static io.aiperf.engine.summary.SearchResultCodec.THRESHOLD;
import static io.aiperf.engine.summary.SearchResultCodec.TRIAL;
import static io.aiperf.engine.summary.SearchResultCodec.TRIALS;
import static io.aiperf.engine.summary.SearchResultCodec.TRIAL_RESULTS;
import static io.aiperf.engine.summary.SearchResultCodec.VALIDITY;
import static io.aiperf.engine.summary.SearchResultCodec.VALUE;
import static io.aiperf.engine.summary.SearchResultCodec.VALUES;
import static io.aiperf.engine.summary.SearchResultCodec.VERDICT;

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
 * @param addedWarmupRequests the warmup the search ran before its first point because none was asked for, or 0
 */
public record SearchResult(SearchSpec spec, List<ProbedPoint> points, OptionalInt capacity, OptionalInt nextMissed,
                           String status, List<Planner> tierPlanners, int addedWarmupRequests) {
    public static final String FILE_NAME = io.aiperf.engine.gate.SearchOutcome.FILE_NAME;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** A search without SLA tiers. */
    public SearchResult(final SearchSpec spec, final List<ProbedPoint> points, final OptionalInt capacity,
                        final OptionalInt nextMissed, final String status) {
        this(spec, points, capacity, nextMissed, status, List.of(), 0);
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
        final ObjectNode search = root.putObject(SEARCH);
        search.put(KNOB, spec.knob()).put(MIN, spec.min()).put(MAX, spec.max())
                .put(PLANNER, spec.planner()).put(MAX_PROBES, spec.maxProbes()).put(MAX_TRIALS, spec.maxTrials())
                .put(CONFIDENCE, spec.confidence())
                .put(BOUNDARY_BAND_PCT, 100 * spec.boundaryBand())
                .put(MAX_CLIENT_LATENESS_MS, spec.maxClientLateness());
        if (addedWarmupRequests > 0) {
            search.put(ADDED_WARMUP_REQUESTS, addedWarmupRequests); // before the first point, none having been asked
        }
        if (spec.recipe() != null) {
            search.put(RECIPE, spec.recipe());
        }
        slas(search.putArray(SLAS), spec.slas());
        SearchExtras.spec(search, spec);
        root.put(STATUS, status);
        if (capacity.isPresent()) {
            root.put(CAPACITY, capacity.getAsInt());
            final ProbedPoint at = pointAt(capacity.getAsInt());
            root.set(AT_CAPACITY, point(at));
        } else {
            root.putNull(CAPACITY);
        }
        root.putObject(CAPACITY_BOUNDS).put(LOW, capacity.orElse(0)).put(HIGH, capacityHigh());
        if (nextMissed.isPresent()) {
            root.put(NEXT_MISSED, nextMissed.getAsInt());
        } else {
            root.putNull(NEXT_MISSED);
        }
        final ArrayNode probed = root.putArray(POINTS);
        points.forEach(p -> probed.add(point(p)));
        final ArrayNode path = root.putArray(PATH);
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
        slas.forEach(s -> into.addObject().put(METRIC, s.metric()).put(STAT, s.stat()).put(OP, s.op())
                .put(THRESHOLD, s.threshold()));
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
        o.put(ORDER, p.order()).put(spec.knob(), p.value()).put(DECISION, p.decision().wireName())
                .put(ARTIFACT_DIR, p.artifactDir());
        if (p.validity() == null) {
            o.putNull(VALIDITY);
        } else {
            o.put(VALIDITY, p.validity());
        }
        number(o, REQUEST_THROUGHPUT, p.throughput());
        o.put(TRIALS, p.trials().size());
        final ArrayNode slos = o.putArray(SLAS);
        for (int i = 0; i < spec.slas().size(); i++) {
            final Sla s = spec.slas().get(i);
            final ObjectNode slo = slos.addObject().put(SLA, s.spec());
            number(slo, VALUE, p.values().get(i));
            number(slo, MARGIN, s.margin(p.values().get(i)));
            slo.put(MET, s.met(p.values().get(i)));
            if (i < p.judgements().size()) {
                final SloJudgement j = p.judgements().get(i);
                slo.put(VERDICT, j.verdict().name().toLowerCase(Locale.ROOT));
                slo.put(DECIDED_BY, j.byValue() ? "value" : "requests");
                if (!j.byValue()) {
                    bound(slo, LOW, j.low());
                    bound(slo, HIGH, j.high());
                }
            }
        }
        if (p.reason() != null) {
            o.put(REASON, p.reason());
        }
        SearchExtras.point(o, this, p);
        final ArrayNode trials = o.putArray(TRIAL_RESULTS);
        for (final Trial t : p.trials()) {
            final ObjectNode to = trials.addObject().put(TRIAL, t.trial()).put(ARTIFACT_DIR, t.artifactDir());
            if (t.validity() == null) {
                to.putNull(VALIDITY);
            } else {
                to.put(VALIDITY, t.validity());
            }
            number(to, REQUEST_THROUGHPUT, t.throughput());
            number(to, CLIENT_LATENESS_P99_MS, t.lateness());
            to.put(CLIENT_LIMITED, t.clientLimited(spec.maxClientLateness()));
            final ArrayNode tv = to.putArray(VALUES);
            t.values().forEach(v -> {
                if (Double.isNaN(v)) {
                    tv.addNull();
                } else {
                    tv.add(v);
                }
            });
            if (t.error() != null) {
                to.put(ERROR, t.error());
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
