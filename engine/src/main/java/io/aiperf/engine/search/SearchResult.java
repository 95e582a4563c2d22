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
                           String status) {
    public static final String FILE_NAME = "search_result.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public ObjectNode json() {
        final ObjectNode root = JSON.createObjectNode();
        final ObjectNode search = root.putObject("search");
        search.put("knob", spec.knob()).put("min", spec.min()).put("max", spec.max())
                .put("planner", "bisection").put("max_probes", spec.maxProbes());
        if (spec.recipe() != null) {
            search.put("recipe", spec.recipe());
        }
        final ArrayNode slas = search.putArray("slas");
        spec.slas().forEach(s -> slas.addObject().put("metric", s.metric()).put("stat", s.stat()).put("op", s.op())
                .put("threshold", s.threshold()));
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
                spec.max(), String.join(", ", spec.slas().stream().map(Sla::spec).toList())));
        final StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%3s  %11s", "#", spec.knob()));
        spec.slas().forEach(s -> head.append(String.format(Locale.ROOT, "  %24s  %7s",
                s.metric().length() > 20 ? s.metric().substring(0, 20) + " " + s.stat() : s.metric() + " " + s.stat(),
                "margin")));
        head.append(String.format(Locale.ROOT, "  %10s  %-8s  %s", "req/s", "validity", "decision"));
        out.println(head);
        for (final ProbedPoint p : points) {
            final StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%3d  %11d", p.order(), p.value()));
            for (int i = 0; i < spec.slas().size(); i++) {
                final double v = p.values().get(i);
                row.append(String.format(Locale.ROOT, "  %24s  %7s", Double.isNaN(v) ? "N/A"
                        : String.format(Locale.ROOT, "%.2f", v), percent(spec.slas().get(i).margin(v))));
            }
            row.append(String.format(Locale.ROOT, "  %10s  %-8s  %s", Double.isNaN(p.throughput()) ? "N/A"
                    : String.format(Locale.ROOT, "%.2f", p.throughput()), p.validity() == null ? "-" : p.validity(),
                    p.decision().wireName()));
            out.println(row);
        }
        out.println(capacity.isPresent()
                ? String.format(Locale.ROOT, "Capacity: %s %d%s (%s, %d points probed)", spec.knob(),
                        capacity.getAsInt(), nextMissed.isPresent() ? "; " + nextMissed.getAsInt() + " does not meet the SLOs" : "",
                        status.replace('_', ' '), points.size())
                : String.format(Locale.ROOT, "Capacity: none; no %s in %d..%d met the SLOs (%s, %d points probed)",
                        spec.knob(), spec.min(), spec.max(), status.replace('_', ' '), points.size()));
    }

    private ProbedPoint pointAt(final int value) {
        return points.stream().filter(p -> p.value() == value).findFirst().orElseThrow();
    }

    private ObjectNode point(final ProbedPoint p) {
        final ObjectNode o = JSON.createObjectNode();
        o.put("order", p.order()).put(spec.knob(), p.value()).put("decision", p.decision().wireName())
                .put("artifact_dir", p.artifactDir());
        if (p.validity() == null) {
            o.putNull("validity");
        } else {
            o.put("validity", p.validity());
        }
        number(o, "request_throughput", p.throughput());
        final ArrayNode slos = o.putArray("slas");
        for (int i = 0; i < spec.slas().size(); i++) {
            final Sla s = spec.slas().get(i);
            final ObjectNode slo = slos.addObject().put("sla", s.spec());
            number(slo, "value", p.values().get(i));
            number(slo, "margin", s.margin(p.values().get(i)));
            slo.put("met", s.met(p.values().get(i)));
        }
        if (p.reason() != null) {
            o.put("reason", p.reason());
        }
        return o;
    }

    private static void number(final ObjectNode o, final String key, final double v) {
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
