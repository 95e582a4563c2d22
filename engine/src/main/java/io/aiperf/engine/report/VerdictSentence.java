package io.aiperf.engine.report;

import io.aiperf.engine.summary.GateResultCodec;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The one sentence under a gate's verdict that says what changed by how much: the rule result that decided the verdict
 * (a failed one first, then unstable, inconclusive; among passed results the largest change), as "TTFT p50 rose
 * 98.2%, from 20.4 ms to 40.5 ms, in cell base (limit +10%)". Reads {@code gate_result.json}. Stateless.
 */
final class VerdictSentence {
    private static final List<String> SEVERITY = List.of("failed", "unstable", "inconclusive", "inactive", "passed");

    private VerdictSentence() {
    }

    /** The sentence, or an empty string when the gate has no rule result. */
    static String of(final JsonNode gate) {
        final List<JsonNode> rules = new ArrayList<>();
        gate.path(GateResultCodec.RULES).forEach(rules::add);
        final JsonNode lead = rules.stream().min(Comparator.<JsonNode>comparingInt(r -> severity(r))
                .thenComparing(r -> -Math.abs(r.path(GateResultCodec.DELTA_PCT).asDouble(0)))).orElse(null);
        if (lead == null) {
            return "";
        }
        final String what = Metrics.label(lead.path(GateResultCodec.METRIC).asText()) + " " + lead.path(GateResultCodec.STAT).asText();
        final String unit = lead.path(GateResultCodec.UNIT).asText("").isEmpty() ? "" : " " + lead.path(GateResultCodec.UNIT).asText();
        final String where = "in cell " + lead.path(GateResultCodec.CELL).asText();
        final String limit = lead.path(GateResultCodec.LIMIT).asText("").isEmpty() ? "" : " (limit " + lead.path(GateResultCodec.LIMIT).asText()
                + ")";
        if (!lead.path(GateResultCodec.DELTA_PCT).isNumber() || !lead.path(GateResultCodec.BASELINE).isNumber()
                || !lead.path(GateResultCodec.CANDIDATE).isNumber()) {
            // No change to state (a first build, a metric missing on a side): the gate's own words say why.
            return what + " " + where + ": " + lead.path(GateResultCodec.MESSAGE).asText() + sentenceEnd(lead.path(GateResultCodec.MESSAGE));
        }
        final double pct = lead.path(GateResultCodec.DELTA_PCT).asDouble();
        final String moved = Math.abs(pct) < 0.05 ? "did not change" : (pct > 0 ? "rose " : "fell ")
                + String.format(Locale.ROOT, "%.1f%%", Math.abs(pct));
        return what + " " + moved + ", from " + Chart.num(lead.path(GateResultCodec.BASELINE).asDouble()) + unit + " to "
                + Chart.num(lead.path(GateResultCodec.CANDIDATE).asDouble()) + unit + ", " + where + limit + ".";
    }

    private static String sentenceEnd(final JsonNode message) {
        return message.asText().endsWith(".") ? "" : ".";
    }

    private static int severity(final JsonNode rule) {
        final int i = SEVERITY.indexOf(rule.path(GateResultCodec.STATUS).asText());
        return i < 0 ? SEVERITY.size() : i;
    }

    /** Short names for the metrics a reader knows by their abbreviation. */
    static final class Metrics {
        private Metrics() {
        }

        static String label(final String tag) {
            return switch (tag) {
                case "time_to_first_token" -> "TTFT";
                case "inter_token_latency" -> "ITL";
                case "time_to_second_token" -> "TTST";
                default -> tag.replace('_', ' ');
            };
        }
    }
}
