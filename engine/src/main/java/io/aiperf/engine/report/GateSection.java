package io.aiperf.engine.report;

import io.aiperf.engine.summary.GateResultCodec;
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
        final String verdict = gate.path(GateResultCodec.VERDICT).asText("unknown");
        final List<JsonNode> reasons = new ArrayList<>();
        int passed = 0;
        int inactive = 0;
        for (final JsonNode r : gate.path(GateResultCodec.RULES)) {
            switch (r.path(GateResultCodec.STATUS).asText()) {
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
                .append(gate.path(GateResultCodec.RULES).size()).append(" rule result(s) passed");
        if (inactive > 0) {
            page.append(", ").append(inactive).append(" inactive");
        }
        page.append(" (exit code ").append(gate.path(GateResultCodec.EXIT_CODE).asInt()).append(").</p>\n");
        if (!reasons.isEmpty()) {
            page.append("<ul class=\"reasons\">\n");
            for (final JsonNode r : reasons) {
                page.append("<li><b>").append(Html.escape(r.path(GateResultCodec.STATUS).asText())).append("</b> ")
                        .append(Html.escape(r.path(GateResultCodec.CELL).asText())).append(": ")
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
        for (final JsonNode r : gate.path(GateResultCodec.RULES)) {
            final String unit = r.path(GateResultCodec.UNIT).asText("").isEmpty() ? "" : " " + r.path(GateResultCodec.UNIT).asText();
            page.append("<tr><td><b>").append(Html.escape(r.path(GateResultCodec.STATUS).asText())).append("</b></td><td>")
                    .append(Html.escape(r.path(GateResultCodec.METRIC).asText())).append("</td><td>")
                    .append(Html.escape(r.path(GateResultCodec.STAT).asText())).append("</td><td>")
                    .append(Html.escape(r.path(GateResultCodec.CELL).asText())).append("</td>");
            number(page, r.path(GateResultCodec.BASELINE), unit);
            number(page, r.path(GateResultCodec.CANDIDATE), unit);
            page.append("<td align=\"right\">").append(pct(r.path(GateResultCodec.DELTA_PCT))).append("</td><td align=\"right\">")
                    .append(r.path(GateResultCodec.CHANGE_CI_LOW_PCT).isNumber() ? "[" + pct(r.path(GateResultCodec.CHANGE_CI_LOW_PCT)) + ", "
                            + pct(r.path(GateResultCodec.CHANGE_CI_HIGH_PCT)) + "]" : "&ndash;")
                    .append("</td><td>").append(Html.escape(limitWithUnit(r))).append("</td><td align=\"right\">")
                    .append(r.path(GateResultCodec.P_VALUE).isNumber()
                            ? String.format(Locale.ROOT, "%.3g", r.path(GateResultCodec.P_VALUE).asDouble()) : "&ndash;")
                    .append("</td></tr>\n");
        }
        page.append("</table>\n");
        ComparisonCharts.gateCharts(gate, runNames).forEach(page::append);
    }

    /** The gate's message without its leading "inconclusive: " when the bold status before it says so. */
    private static String withoutStatus(final JsonNode rule) {
        final String message = rule.path(GateResultCodec.MESSAGE).asText();
        final String prefix = rule.path(GateResultCodec.STATUS).asText() + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    /** The rule's limits with the metric's unit on the absolute ones ({@code <= 2000 ms}); percentages keep theirs. */
    static String limitWithUnit(final JsonNode rule) {
        final String unit = rule.path(GateResultCodec.UNIT).asText("");
        final String limit = rule.path(GateResultCodec.LIMIT).asText("");
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
