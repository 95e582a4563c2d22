package io.aiperf.engine.report;

import static io.aiperf.engine.summary.SearchResultCodec.BEST;
import static io.aiperf.engine.summary.SearchResultCodec.BINDING_CONSTRAINT;
import static io.aiperf.engine.summary.SearchResultCodec.CAPACITY;
import static io.aiperf.engine.summary.SearchResultCodec.DIRECTION;
import static io.aiperf.engine.summary.SearchResultCodec.LABEL;
import static io.aiperf.engine.summary.SearchResultCodec.METRIC;
import static io.aiperf.engine.summary.SearchResultCodec.NEXT_MISSED;
import static io.aiperf.engine.summary.SearchResultCodec.OBJECTIVE;
import static io.aiperf.engine.summary.SearchResultCodec.OP;
import static io.aiperf.engine.summary.SearchResultCodec.SEARCH;
import static io.aiperf.engine.summary.SearchResultCodec.SLAS;
import static io.aiperf.engine.summary.SearchResultCodec.SLA_TIERS;
import static io.aiperf.engine.summary.SearchResultCodec.STAT;
import static io.aiperf.engine.summary.SearchResultCodec.THRESHOLD;
import static io.aiperf.engine.summary.SearchResultCodec.TIERS;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/**
 * The capacity section's lines for upstream's further search options (src-docs/capacity.md): each SLA tier's
 * capacity and the objective's best point, from {@code search_result.json}. Stateless.
 */
final class CapacityTiers {
    private CapacityTiers() {
    }

    static void append(final StringBuilder page, final JsonNode root, final String knob) {
        final JsonNode objective = root.path(SEARCH).path(OBJECTIVE);
        final JsonNode tiers = root.path(TIERS);
        if (objective.isMissingNode() && !tiers.isArray()) {
            return;
        }
        page.append("<ul class=\"capacity-extras\">\n");
        for (final JsonNode t : tiers) {
            final StringBuilder slas = new StringBuilder();
            for (final JsonNode tier : root.path(SEARCH).path(SLA_TIERS)) {
                if (tier.path(LABEL).asText().equals(t.path(LABEL).asText())) {
                    tier.path(SLAS).forEach(s -> slas.append(slas.length() == 0 ? "" : ", ")
                            .append(s.path(METRIC).asText()).append(' ').append(s.path(STAT).asText()).append(' ')
                            .append(s.path(OP).asText()).append(' ').append(s.path(THRESHOLD).asText()));
                }
            }
            page.append("<li class=\"capacity-tier\">").append(Html.escape("Tier " + t.path(LABEL).asText() + " ("
                    + slas + "): capacity " + (t.path(CAPACITY).isNumber() ? knob + " " + t.path(CAPACITY).asInt()
                    : "none") + (t.path(NEXT_MISSED).isNumber() ? "; the next point, " + t.path(NEXT_MISSED).asInt()
                    + ", missed " + t.path(BINDING_CONSTRAINT).asText() : ""))).append("</li>\n");
        }
        if (!objective.isMissingNode()) {
            final JsonNode best = root.path(BEST);
            page.append("<li class=\"capacity-best\">").append(Html.escape("Best " + objective.path(METRIC).asText()
                    + " " + objective.path(STAT).asText() + " (" + objective.path(DIRECTION).asText() + "): "
                    + (best.isObject() ? String.format(Locale.ROOT, "%.2f at %s %d", best.path(OBJECTIVE).asDouble(),
                    knob, best.path(knob).asInt()) : "none among the points that met the SLOs"))).append("</li>\n");
        }
        page.append("</ul>\n");
    }
}
