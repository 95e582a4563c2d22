package io.aiperf.engine.ci;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained SVG of the key metrics over builds: one small panel per metric, builds on the x axis, the
 * metric in its unit on the y axis. Plain SVG with no script or style sheet, so a page can show it as an image
 * under a strict Content-Security-Policy. Stateless.
 */
public final class TrendChart {
    /**
     * One build's key metrics (keys of {@link KeyMetrics#KEYS}).
     *
     * @param href where its dots link to (the build's page), or null for no link; plain SVG anchors, no script
     */
    public record Point(String label, Map<String, Double> metrics, String href) {
        public Point(final String label, final Map<String, Double> metrics) {
            this(label, metrics, null);
        }
    }

    private static final int PANEL_WIDTH = 360;
    private static final int PANEL_HEIGHT = 180;
    private static final int COLUMNS = 2;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 28;
    private static final int BOTTOM = 40;

    private TrendChart() {
    }

    /**
     * @param points builds, oldest first
     * @return the SVG document; a panel per key metric that at least one build has
     */
    public static String svg(final List<Point> points) {
        final List<String> keys = new ArrayList<>();
        for (final String key : KeyMetrics.KEYS) {
            if (points.stream().anyMatch(p -> finite(p.metrics().get(key)))) {
                keys.add(key);
            }
        }
        final int rows = Math.max(1, (keys.size() + COLUMNS - 1) / COLUMNS);
        final int width = PANEL_WIDTH * COLUMNS;
        final int height = PANEL_HEIGHT * rows;
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">%n", width, height, width, height));
        sb.append("<title>aiperf key metrics over builds</title>\n");
        if (keys.isEmpty()) {
            sb.append("<text x=\"16\" y=\"24\">No key metrics recorded yet.</text>\n");
        }
        for (int i = 0; i < keys.size(); i++) {
            panel(sb, keys.get(i), points, (i % COLUMNS) * PANEL_WIDTH, (i / COLUMNS) * PANEL_HEIGHT);
        }
        return sb.append("</svg>\n").toString();
    }

    private static void panel(final StringBuilder sb, final String key, final List<Point> points, final int x0,
                              final int y0) {
        final int plotW = PANEL_WIDTH - LEFT - RIGHT;
        final int plotH = PANEL_HEIGHT - TOP - BOTTOM;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (final Point p : points) {
            final Double v = p.metrics().get(key);
            if (finite(v)) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        if (max - min < 1e-9 * Math.max(1, Math.abs(max))) { // a flat line: zero sits on the axis, others mid-panel
            if (min == 0) {
                max = 1;
            } else {
                min -= Math.abs(min) * 0.05;
                max += Math.abs(max) * 0.05;
            }
        }
        final String unit = KeyMetrics.unit(key);
        sb.append(String.format(Locale.ROOT, "<g class=\"panel\" data-metric=\"%s\" transform=\"translate(%d,%d)\">%n",
                escape(key), x0, y0));
        sb.append(String.format(Locale.ROOT, "<text class=\"title\" x=\"%d\" y=\"16\" font-weight=\"bold\">%s</text>%n",
                LEFT, escape(key)));
        final int axisX = LEFT;
        final int axisY = TOP + plotH;
        sb.append(String.format(Locale.ROOT, "<line class=\"x-axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>%n",
                axisX, axisY, axisX + plotW, axisY));
        sb.append(String.format(Locale.ROOT, "<line class=\"y-axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>%n",
                axisX, TOP, axisX, axisY));
        sb.append(String.format(Locale.ROOT, "<text class=\"x-label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">build</text>%n",
                LEFT + plotW / 2, PANEL_HEIGHT - 6));
        sb.append(String.format(Locale.ROOT, "<text class=\"y-label\" x=\"12\" y=\"%d\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 12 %d)\">%s</text>%n", TOP + plotH / 2, TOP + plotH / 2, escape(unit)));
        sb.append(String.format(Locale.ROOT, "<text class=\"y-tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                LEFT - 4, TOP + 4, number(max)));
        sb.append(String.format(Locale.ROOT, "<text class=\"y-tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                LEFT - 4, axisY, number(min)));
        final StringBuilder line = new StringBuilder();
        final StringBuilder dots = new StringBuilder();
        final int n = points.size();
        for (int i = 0; i < n; i++) {
            final Point p = points.get(i);
            final double px = axisX + (n == 1 ? plotW / 2.0 : plotW * i / (double) (n - 1));
            if (i == 0 || i == n - 1) {
                sb.append(String.format(Locale.ROOT, "<text class=\"x-tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                        px, axisY + 14, escape(p.label())));
            }
            final Double v = p.metrics().get(key);
            if (!finite(v)) {
                continue;
            }
            final double py = axisY - plotH * (v - min) / (max - min);
            line.append(line.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.1f,%.1f", px, py));
            final String dot = String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#1f77b4\"><title>%s: %s %s</title></circle>",
                    px, py, escape(p.label()), number(v), escape(unit));
            // target _top: the chart is embedded as an object, and the build page should replace the job page
            dots.append(p.href() == null ? dot : "<a class=\"build\" href=\"" + escape(p.href()) + "\" target=\"_top\">"
                    + dot + "</a>").append('\n');
        }
        sb.append(String.format(Locale.ROOT, "<polyline class=\"series\" data-metric=\"%s\" fill=\"none\" stroke=\"#1f77b4\" "
                + "stroke-width=\"2\" points=\"%s\"/>%n", escape(key), line));
        sb.append(dots).append("</g>\n");
    }

    private static boolean finite(final Double v) {
        return v != null && Double.isFinite(v);
    }

    private static String number(final double v) {
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String escape(final String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
