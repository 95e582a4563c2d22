package io.aiperf.engine.report;

import static io.aiperf.engine.summary.SearchResultCodec.DECISION;
import static io.aiperf.engine.summary.SearchResultCodec.MARGIN;
import static io.aiperf.engine.summary.SearchResultCodec.METRIC;
import static io.aiperf.engine.summary.SearchResultCodec.ORDER;
import static io.aiperf.engine.summary.SearchResultCodec.POINTS;
import static io.aiperf.engine.summary.SearchResultCodec.REASON;
import static io.aiperf.engine.summary.SearchResultCodec.REQUEST_THROUGHPUT;
import static io.aiperf.engine.summary.SearchResultCodec.SEARCH;
import static io.aiperf.engine.summary.SearchResultCodec.SLAS;
import static io.aiperf.engine.summary.SearchResultCodec.STAT;
import static io.aiperf.engine.summary.SearchResultCodec.THRESHOLD;
import static io.aiperf.engine.summary.SearchResultCodec.TRIALS;
import static io.aiperf.engine.summary.SearchResultCodec.VALIDITY;
import static io.aiperf.engine.summary.SearchResultCodec.VALUE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.gate.SearchOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The capacity search's section of {@code report.html} (src-docs/capacity.md, src-docs/report.md): for each run
 * directory with a {@code search_result.json}, the capacity with its bounds and the next point that did not meet the
 * SLOs, one chart per SLO (each probed point's statistic against the knob, the SLO's threshold as a line, the
 * capacity as a vertical line) and the table of probed points with their trials and decisions. Stateless.
 */
final class CapacitySection {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Colours by decision: meets green, misses red, inconclusive amber, invalid purple, failed grey. */
    private static final java.util.Map<String, String> COLOURS = java.util.Map.of("meets", Chart.PALETTE[2],
            "misses", Chart.PALETTE[3], "inconclusive", Chart.PALETTE[5], "invalid", Chart.PALETTE[4],
            "failed", "#6b7280");

    private CapacitySection() {
    }

    /**
     * A run directory's capacity search: the result a search just assembled, or one read from its file (or why it
     * could not be).
     *
     * @param error why the file cannot be read, or null
     */
    record Found(JsonNode root, SearchOutcome outcome, String error) {
        /** The search a run just made, as it holds it: nothing is read. */
        static Found of(final JsonNode root, final Path dir) {
            try {
                return new Found(root, SearchOutcome.of(root, dir.resolve(SearchOutcome.FILE_NAME).toString()), null);
            } catch (RuntimeException e) {
                return new Found(null, null, dir.resolve(SearchOutcome.FILE_NAME) + " cannot be read: "
                        + e.getMessage());
            }
        }

        /** The {@code search_result.json} of a run on disk, or null when it has none. */
        static Found read(final Path dir) {
            final Path file = dir.resolve(SearchOutcome.FILE_NAME);
            if (!Files.isRegularFile(file)) {
                return null;
            }
            try {
                final JsonNode root = JSON.readTree(file.toFile());
                return new Found(root, SearchOutcome.of(root, file.toString()), null);
            } catch (IOException | RuntimeException e) {
                return new Found(null, null, file + " cannot be read: " + e.getMessage());
            }
        }
    }

    /** Appends the section for every search found; nothing when there is none. */
    static void append(final StringBuilder page, final List<Found> searches) {
        for (final Found found : searches) {
            if (found.error() != null) {
                page.append("<h2>Capacity search</h2>\n<p>").append(Html.escape(found.error())).append("</p>\n");
                continue;
            }
            section(page, found.root(), found.outcome());
        }
    }

    private static void section(final StringBuilder page, final JsonNode root, final SearchOutcome o) {
        final String knob = o.knob();
        page.append("<h2>Capacity search</h2>\n<p>").append(Html.escape("The highest " + knob + " in " + o.min() + ".."
                + o.max() + " that meets " + String.join(", ", o.slas()) + ": ")).append("<b id=\"capacity\">")
                .append(Html.escape(o.capacityText())).append("</b>");
        if (o.nextMissed() != null) {
            page.append(Html.escape("; the next point, " + knob + " " + o.nextMissed() + ", "
                    + decisionAt(root, knob, o.nextMissed())));
        }
        page.append(Html.escape(" (" + o.status().replace('_', ' ') + ", " + root.path(POINTS).size()
                + " points probed).")).append("</p>\n");
        final JsonNode slas = root.path(SEARCH).path(SLAS);
        for (int i = 0; i < slas.size(); i++) {
            chart(page, root, i, knob, o);
        }
        CapacityTiers.append(page, root, knob);
        table(page, root, knob);
    }

    private static String decisionAt(final JsonNode root, final String knob, final int value) {
        for (final JsonNode p : root.path(POINTS)) {
            if (p.path(knob).asInt() == value) {
                return switch (p.path(DECISION).asText()) {
                    case "inconclusive" -> "was inconclusive after " + p.path(TRIALS).asInt() + " trial(s)";
                    case "invalid" -> "was invalid";
                    case "failed" -> "failed";
                    default -> "does not meet them";
                };
            }
        }
        return "does not meet them";
    }

    private static void chart(final StringBuilder page, final JsonNode root, final int sla, final String knob,
                              final SearchOutcome o) {
        final JsonNode spec = root.path(SEARCH).path(SLAS).get(sla);
        final String name = spec.path(METRIC).asText() + " " + spec.path(STAT).asText();
        final double threshold = spec.path(THRESHOLD).asDouble();
        final JsonNode points = root.path(POINTS);
        final double[] xs = new double[points.size()];
        final double[] ys = new double[points.size()];
        for (int i = 0; i < points.size(); i++) {
            xs[i] = points.get(i).path(knob).asDouble();
            final JsonNode v = points.get(i).path(SLAS).path(sla).path(VALUE);
            ys[i] = v.isNumber() ? v.asDouble() : Double.NaN;
        }
        final Chart chart = new Chart("capacity-" + sla, name + " at each probed " + knob + ", and the SLO", knob,
                name).fit(xs, ys).fit(new double[] {o.min(), o.max()}, new double[] {threshold});
        if (chart.empty()) {
            return;
        }
        chart.line(new double[] {o.min(), o.max()}, new double[] {threshold, threshold}, Chart.PALETTE[3],
                "capacity-slo");
        if (o.capacity() != null) {
            final double top = java.util.Arrays.stream(ys).filter(Double::isFinite).max().orElse(threshold);
            chart.line(new double[] {o.capacity(), o.capacity()}, new double[] {0, Math.max(top, threshold)},
                    Chart.PALETTE[2], "capacity-line");
        }
        for (int i = 0; i < points.size(); i++) {
            if (Double.isFinite(ys[i])) {
                final String decision = points.get(i).path(DECISION).asText();
                chart.point(xs[i], ys[i], COLOURS.getOrDefault(decision, "#6b7280"), "capacity-point",
                        points.get(i).path(knob).asInt() + " " + decision);
            }
        }
        page.append(chart.svg());
    }

    private static void table(final StringBuilder page, final JsonNode root, final String knob) {
        page.append("<table " + Html.TABLE + ">\n<tr><th>#</th><th>")
                .append(Html.escape(knob)).append("</th>");
        for (final JsonNode s : root.path(SEARCH).path(SLAS)) {
            page.append("<th>").append(Html.escape(s.path(METRIC).asText() + " " + s.path(STAT).asText()))
                    .append("</th><th>margin</th>");
        }
        page.append("<th>req/s</th><th>trials</th><th>validity</th><th>decision</th><th>reason</th></tr>\n");
        for (final JsonNode p : root.path(POINTS)) {
            page.append("<tr><td>").append(p.path(ORDER).asInt()).append("</td><td align=\"right\">")
                    .append(p.path(knob).asInt()).append("</td>");
            for (final JsonNode s : p.path(SLAS)) {
                number(page, s.path(VALUE));
                page.append("<td align=\"right\">").append(s.path(MARGIN).isNumber()
                        ? String.format(Locale.ROOT, "%+.0f%%", 100 * s.path(MARGIN).asDouble()) : "&ndash;")
                        .append("</td>");
            }
            number(page, p.path(REQUEST_THROUGHPUT));
            page.append("<td align=\"right\">").append(p.path(TRIALS).asInt(1)).append("</td><td>")
                    .append(Html.escape(p.path(VALIDITY).asText("-"))).append("</td><td>")
                    .append(Html.escape(p.path(DECISION).asText())).append("</td><td>")
                    .append(Html.escape(p.path(REASON).asText(""))).append("</td></tr>\n");
        }
        page.append("</table>\n");
    }

    private static void number(final StringBuilder page, final JsonNode v) {
        page.append("<td align=\"right\">").append(v.isNumber() ? Chart.num(v.asDouble()) : "&ndash;").append("</td>");
    }
}
