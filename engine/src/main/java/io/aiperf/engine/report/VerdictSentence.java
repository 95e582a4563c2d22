package io.aiperf.engine.report;

import static io.aiperf.engine.summary.GateResultCodec.BASELINE;
import static io.aiperf.engine.summary.GateResultCodec.CANDIDATE;
import static io.aiperf.engine.summary.GateResultCodec.CELL;
import static io.aiperf.engine.summary.GateResultCodec.DELTA_PCT;
import static io.aiperf.engine.summary.GateResultCodec.LIMIT;
import static io.aiperf.engine.summary.GateResultCodec.MESSAGE;
import static io.aiperf.engine.summary.GateResultCodec.METRIC;
import static io.aiperf.engine.summary.GateResultCodec.RULES;
import static io.aiperf.engine.summary.GateResultCodec.STAT;
import static io.aiperf.engine.summary.GateResultCodec.STATUS;
import static io.aiperf.engine.summary.GateResultCodec.UNIT;

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
        gate.path(RULES).forEach(rules::add);
        final JsonNode lead = rules.stream().min(Comparator.<JsonNode>comparingInt(r -> severity(r))
                .thenComparing(r -> -Math.abs(r.path(DELTA_PCT).asDouble(0)))).orElse(null);
        if (lead == null) {
            return "";
        }
        final String what = Metrics.label(lead.path(METRIC).asText()) + " " + lead.path(STAT).asText();
        final String unit = lead.path(UNIT).asText("").isEmpty() ? "" : " " + lead.path(UNIT).asText();
        final String where = "in cell " + lead.path(CELL).asText();
        final String limit = lead.path(LIMIT).asText("").isEmpty() ? "" : " (limit " + lead.path(LIMIT).asText()
                + ")";
        if (!lead.path(DELTA_PCT).isNumber() || !lead.path(BASELINE).isNumber()
                || !lead.path(CANDIDATE).isNumber()) {
            // No change to state (a first build, a metric missing on a side): the gate's own words say why.
            return what + " " + where + ": " + lead.path(MESSAGE).asText() + sentenceEnd(lead.path(MESSAGE));
        }
        final double pct = lead.path(DELTA_PCT).asDouble();
        final String moved = Math.abs(pct) < 0.05 ? "did not change" : (pct > 0 ? "rose " : "fell ")
                + String.format(Locale.ROOT, "%.1f%%", Math.abs(pct));
        return what + " " + moved + ", from " + Chart.num(lead.path(BASELINE).asDouble()) + unit + " to "
                + Chart.num(lead.path(CANDIDATE).asDouble()) + unit + ", " + where + limit + ".";
    }

    private static String sentenceEnd(final JsonNode message) {
        return message.asText().endsWith(".") ? "" : ".";
    }

    private static int severity(final JsonNode rule) {
        final int i = SEVERITY.indexOf(rule.path(STATUS).asText());
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
