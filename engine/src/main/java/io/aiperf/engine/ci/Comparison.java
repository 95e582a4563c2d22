package io.aiperf.engine.ci;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A build's key metrics next to its baseline's: per metric the baseline (the mean over the baseline builds), the
 * candidate, the change in percent, and the gate rule on it with its status when there is one. Rows are JDK maps
 * (they are persisted with the build and shown on its page); {@link #svg} draws them. Stateless.
 */
public final class Comparison {
    public static final String METRIC = "metric";
    public static final String UNIT = "unit";
    public static final String BASELINE = "baseline";
    public static final String CANDIDATE = "candidate";
    public static final String CHANGE_PCT = "changePct";
    public static final String RULE = "rule";
    public static final String STATUS = "status";
    private static final int ROW = 34;
    private static final int LABEL = 210;
    private static final int BAR = 300;

    private Comparison() {
    }

    /**
     * @param candidate this call's key metrics
     * @param baselines the baseline builds' key metrics (empty without a baseline)
     * @param gateRules the summary's gate rules ({@link StepSummary#GATE_RULES})
     * @return one row per key metric the candidate has
     */
    public static ArrayList<LinkedHashMap<String, Object>> rows(final Map<String, Double> candidate,
                                                               final List<Map<String, Double>> baselines,
                                                               final List<? extends Map<String, Object>> gateRules) {
        final ArrayList<LinkedHashMap<String, Object>> out = new ArrayList<>();
        for (final String key : KeyMetrics.KEYS) {
            final Double c = candidate.get(key);
            if (c == null) {
                continue;
            }
            final Double b = mean(baselines, key);
            final LinkedHashMap<String, Object> row = new LinkedHashMap<>();
            row.put(METRIC, key);
            row.put(UNIT, KeyMetrics.unit(key));
            row.put(BASELINE, b);
            row.put(CANDIDATE, c);
            row.put(CHANGE_PCT, b == null || b == 0 ? null : 100.0 * (c - b) / Math.abs(b));
            final Map<String, Object> rule = gateRules.stream().filter(r -> key.equals(r.get("metric"))).findFirst()
                    .orElse(null);
            row.put(RULE, rule == null ? null : String.valueOf(rule.getOrDefault("limit", "")));
            row.put(STATUS, rule == null ? null : String.valueOf(rule.get("status")));
            out.add(row);
        }
        return out;
    }

    private static Double mean(final List<Map<String, Double>> baselines, final String key) {
        double sum = 0;
        int n = 0;
        for (final Map<String, Double> b : baselines) {
            final Double v = b.get(key);
            if (v != null && Double.isFinite(v)) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? null : sum / n;
    }

    /**
     * The rows as a self-contained SVG: per metric a grey baseline bar above a blue candidate bar, scaled to the
     * larger of the two, with both values and the change. No script or style sheet.
     */
    public static String svg(final List<? extends Map<String, Object>> rows) {
        final int height = Math.max(1, rows.size()) * ROW + 24;
        final int width = LABEL + BAR + 170;
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">%n", width, height,
                width, height));
        sb.append("<title>aiperf: this build against its baseline</title>\n");
        if (rows.isEmpty()) {
            sb.append("<text x=\"8\" y=\"20\">No key metrics to compare.</text>\n");
        }
        for (int i = 0; i < rows.size(); i++) {
            final Map<String, Object> r = rows.get(i);
            final double c = number(r.get(CANDIDATE));
            final double b = number(r.get(BASELINE));
            final double max = Math.max(Double.isNaN(b) ? 0 : Math.abs(b), Math.abs(c));
            final int y = 12 + i * ROW;
            final String unit = escape(String.valueOf(r.get(UNIT)));
            sb.append(String.format(Locale.ROOT, "<g class=\"row\" data-metric=\"%s\">%n", escape(String.valueOf(r.get(METRIC)))));
            sb.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\">%s</text>%n", y + 14, escape(String.valueOf(r.get(METRIC)))));
            if (!Double.isNaN(b)) {
                sb.append(String.format(Locale.ROOT, "<rect class=\"baseline\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"10\" fill=\"#999\"/>%n",
                        LABEL, y, width(b, max)));
            }
            sb.append(String.format(Locale.ROOT, "<rect class=\"candidate\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"10\" fill=\"#1f77b4\"/>%n",
                    LABEL, y + 12, width(c, max)));
            final Object change = r.get(CHANGE_PCT);
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s → %s %s%s</text>%n", LABEL + BAR + 8, y + 14,
                    Double.isNaN(b) ? "no baseline" : format(b), format(c), unit,
                    change instanceof Number n ? String.format(Locale.ROOT, " (%+.1f%%)", n.doubleValue()) : ""));
            sb.append("</g>\n");
        }
        return sb.append("</svg>\n").toString();
    }

    private static double width(final double v, final double max) {
        return max <= 0 ? 0 : BAR * Math.abs(v) / max;
    }

    private static double number(final Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static String format(final double v) {
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String escape(final String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
