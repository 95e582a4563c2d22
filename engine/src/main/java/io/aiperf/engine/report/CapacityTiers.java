package io.aiperf.engine.report;

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
        final JsonNode objective = root.path("search").path("objective");
        final JsonNode tiers = root.path("tiers");
        if (objective.isMissingNode() && !tiers.isArray()) {
            return;
        }
        page.append("<ul class=\"capacity-extras\">\n");
        for (final JsonNode t : tiers) {
            final StringBuilder slas = new StringBuilder();
            for (final JsonNode tier : root.path("search").path("sla_tiers")) {
                if (tier.path("label").asText().equals(t.path("label").asText())) {
                    tier.path("slas").forEach(s -> slas.append(slas.length() == 0 ? "" : ", ")
                            .append(s.path("metric").asText()).append(' ').append(s.path("stat").asText()).append(' ')
                            .append(s.path("op").asText()).append(' ').append(s.path("threshold").asText()));
                }
            }
            page.append("<li class=\"capacity-tier\">").append(Html.escape("Tier " + t.path("label").asText() + " ("
                    + slas + "): capacity " + (t.path("capacity").isNumber() ? knob + " " + t.path("capacity").asInt()
                    : "none") + (t.path("next_missed").isNumber() ? "; the next point, " + t.path("next_missed").asInt()
                    + ", missed " + t.path("binding_constraint").asText() : ""))).append("</li>\n");
        }
        if (!objective.isMissingNode()) {
            final JsonNode best = root.path("best");
            page.append("<li class=\"capacity-best\">").append(Html.escape("Best " + objective.path("metric").asText()
                    + " " + objective.path("stat").asText() + " (" + objective.path("direction").asText() + "): "
                    + (best.isObject() ? String.format(Locale.ROOT, "%.2f at %s %d", best.path("objective").asDouble(),
                    knob, best.path(knob).asInt()) : "none among the points that met the SLOs"))).append("</li>\n");
        }
        page.append("</ul>\n");
    }
}
