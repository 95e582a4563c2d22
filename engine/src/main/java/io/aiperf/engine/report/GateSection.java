package io.aiperf.engine.report;

import static io.aiperf.engine.summary.GateResultCodec.BASELINE;
import static io.aiperf.engine.summary.GateResultCodec.CANDIDATE;
import static io.aiperf.engine.summary.GateResultCodec.CELL;
import static io.aiperf.engine.summary.GateResultCodec.CHANGE_CI_HIGH_PCT;
import static io.aiperf.engine.summary.GateResultCodec.CHANGE_CI_LOW_PCT;
import static io.aiperf.engine.summary.GateResultCodec.DELTA_PCT;
import static io.aiperf.engine.summary.GateResultCodec.EXIT_CODE;
import static io.aiperf.engine.summary.GateResultCodec.LIMIT;
import static io.aiperf.engine.summary.GateResultCodec.MESSAGE;
import static io.aiperf.engine.summary.GateResultCodec.METRIC;
import static io.aiperf.engine.summary.GateResultCodec.P_VALUE;
import static io.aiperf.engine.summary.GateResultCodec.RULES;
import static io.aiperf.engine.summary.GateResultCodec.STAT;
import static io.aiperf.engine.summary.GateResultCodec.STATUS;
import static io.aiperf.engine.summary.GateResultCodec.UNIT;
import static io.aiperf.engine.summary.GateResultCodec.VERDICT;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The top of a gated report: the verdict with its reasons (every rule result that did not pass, in the gate's
 * words), then per gated metric the table of baseline, candidate, change, interval of the change and p, and a chart
 * per metric with the limit drawn. Reads {@code gate_result.json}. Stateless.
 */
final class GateSection {
    private GateSection() {
    }

    static void verdict(final StringBuilder page, final JsonNode gate) {
        final String verdict = gate.path(VERDICT).asText("unknown");
        final List<JsonNode> reasons = new ArrayList<>();
        int passed = 0;
        int inactive = 0;
        for (final JsonNode r : gate.path(RULES)) {
            switch (r.path(STATUS).asText()) {
                case "passed" -> passed++;
                case "inactive" -> {
                    inactive++;
                    reasons.add(r);
                }
                default -> reasons.add(r);
            }
        }
        // The verdict in its colour, with what changed by how much; white on a dark status colour reads in both
        // schemes. A presentation attribute, not a style, so a strict Content-Security-Policy keeps it.
        page.append("<table class=\"banner verdict-").append(Html.escape(verdict)).append("\" width=\"100%\" "
                + "cellpadding=\"12\" cellspacing=\"0\" border=\"0\" bgcolor=\"").append(colour(verdict))
                .append("\"><tr><td><font color=\"#ffffff\">\n<h2 id=\"verdict\">Verdict: ")
                .append(Html.escape(verdict.toUpperCase(Locale.ROOT))).append("</h2>\n<p class=\"verdict-change\">")
                .append(Html.escape(VerdictSentence.of(gate))).append("</p>\n</font></td></tr></table>\n")
                .append("<p class=\"verdict-summary\">").append(passed).append(" of ")
                .append(gate.path(RULES).size()).append(" rule result(s) passed");
        if (inactive > 0) {
            page.append(", ").append(inactive).append(" inactive");
        }
        page.append(" (exit code ").append(gate.path(EXIT_CODE).asInt()).append(").</p>\n");
        if (!reasons.isEmpty()) {
            page.append("<ul class=\"reasons\">\n");
            for (final JsonNode r : reasons) {
                page.append("<li><b>").append(Html.escape(r.path(STATUS).asText())).append("</b> ")
                        .append(Html.escape(r.path(CELL).asText())).append(": ")
                        .append(Html.escape(withoutStatus(r))).append("</li>\n");
            }
            page.append("</ul>\n");
        }
    }

    /** The verdict's colour: passed green, failed red, unstable amber, inconclusive grey. */
    static String colour(final String verdict) {
        return switch (verdict) {
            case "passed" -> Palette.GOOD;
            case "failed" -> Palette.BAD;
            case "unstable" -> Palette.WARN;
            default -> Palette.NEUTRAL;
        };
    }

    static void metrics(final StringBuilder page, final JsonNode gate, final List<String> runNames) {
        page.append("<h2 id=\"gate\">Gated metrics</h2>\n<table class=\"gate\" " + Html.TABLE
                + ">\n<tr><th>status</th><th>metric</th><th>stat</th><th>cell</th><th>baseline</th>"
                + "<th>candidate</th><th>change</th><th>interval of the change</th><th>limit</th><th>p</th></tr>\n");
        for (final JsonNode r : gate.path(RULES)) {
            final String unit = r.path(UNIT).asText("").isEmpty() ? "" : " " + r.path(UNIT).asText();
            page.append("<tr><td><b>").append(Html.escape(r.path(STATUS).asText())).append("</b></td><td>")
                    .append(Html.escape(r.path(METRIC).asText())).append("</td><td>")
                    .append(Html.escape(r.path(STAT).asText())).append("</td><td>")
                    .append(Html.escape(r.path(CELL).asText())).append("</td>");
            number(page, r.path(BASELINE), unit);
            number(page, r.path(CANDIDATE), unit);
            page.append("<td align=\"right\">").append(pct(r.path(DELTA_PCT))).append("</td><td align=\"right\">")
                    .append(r.path(CHANGE_CI_LOW_PCT).isNumber() ? "[" + pct(r.path(CHANGE_CI_LOW_PCT)) + ", "
                            + pct(r.path(CHANGE_CI_HIGH_PCT)) + "]" : "&ndash;")
                    .append("</td><td>").append(Html.escape(limitWithUnit(r))).append("</td><td align=\"right\">")
                    .append(r.path(P_VALUE).isNumber()
                            ? String.format(Locale.ROOT, "%.3g", r.path(P_VALUE).asDouble()) : "&ndash;")
                    .append("</td></tr>\n");
        }
        page.append("</table>\n");
        ComparisonCharts.gateCharts(gate, runNames).forEach(page::append);
    }

    /** The gate's message without its leading "inconclusive: " when the bold status before it says so. */
    private static String withoutStatus(final JsonNode rule) {
        final String message = rule.path(MESSAGE).asText();
        final String prefix = rule.path(STATUS).asText() + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    /** The rule's limits with the metric's unit on the absolute ones ({@code <= 2000 ms}); percentages keep theirs. */
    static String limitWithUnit(final JsonNode rule) {
        final String unit = rule.path(UNIT).asText("");
        final String limit = rule.path(LIMIT).asText("");
        return unit.isEmpty() ? limit : limit.replaceAll("([<>]= -?[0-9.]+)", "$1 " + java.util.regex.Matcher
                .quoteReplacement(unit));
    }

    private static String pct(final JsonNode v) {
        return v.isNumber() ? String.format(Locale.ROOT, "%+.1f%%", v.asDouble()) : "&ndash;";
    }

    private static void number(final StringBuilder page, final JsonNode v, final String unit) {
        page.append("<td align=\"right\">").append(v.isNumber() ? Html.escape(Chart.num(v.asDouble()) + unit)
                : "&ndash;").append("</td>");
    }
}
