package io.aiperf.engine.ci;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A self-contained SVG of the key metrics over builds: one small panel per metric, builds on the x axis (each
 * labelled), the metric in its unit on the y axis from zero with round ticks, so a 5% wobble looks like one; one
 * series per sweep point. Plain SVG with no script or style sheet, so a page can show it as an image under a strict
 * Content-Security-Policy. Stateless.
 */
public final class TrendChart {
    /**
     * One build's key metrics (keys of {@link KeyMetrics#KEYS}), for a run of one sweep point.
     *
     * @param href where its dots link to (the build's page), or null for no link; plain SVG anchors, no script
     */
    public record Point(String label, Map<String, Double> metrics, String href) {
        public Point(final String label, final Map<String, Double> metrics) {
            this(label, metrics, null);
        }
    }

    /**
     * One build's key metrics per sweep point ({@link KeyMetrics#byPoint}).
     *
     * @param href where its dots link to, or null
     */
    public record Build(String label, Map<String, Map<String, Double>> points, String href) {
    }

    private static final String[] COLORS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    private static final int PANEL_WIDTH = 360;
    private static final int PANEL_HEIGHT = 180;
    private static final int COLUMNS = 2;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 28;
    private static final int BOTTOM = 40;
    private static final int LEGEND_ROW = 16;
    /** More builds than this label every few ticks only, so labels never overlap. */
    private static final int MAX_X_TICKS = 8;

    private TrendChart() {
    }

    /** @param points builds of one sweep point each, oldest first */
    public static String svg(final List<Point> points) {
        final List<Build> builds = new ArrayList<>();
        for (final Point p : points) {
            builds.add(new Build(p.label(), p.metrics().isEmpty() ? Map.of()
                    : Map.of(KeyMetrics.SINGLE_POINT, p.metrics()), p.href()));
        }
        return svgOfBuilds(builds);
    }

    /**
     * @param builds oldest first
     * @return the SVG document; a panel per key metric that at least one build has, a series per sweep point
     */
    public static String svgOfBuilds(final List<Build> builds) {
        final Set<String> series = new LinkedHashSet<>();
        builds.forEach(b -> series.addAll(b.points().keySet()));
        final List<String> names = series.stream().sorted(NaturalOrder.COMPARATOR).toList();
        final List<String> keys = new ArrayList<>();
        for (final String key : KeyMetrics.KEYS) {
            if (builds.stream().anyMatch(b -> b.points().values().stream().anyMatch(m -> finite(m.get(key))))) {
                keys.add(key);
            }
        }
        final boolean legend = names.size() > 1;
        final int legendHeight = legend ? LEGEND_ROW * ((names.size() + 3) / 4) + 8 : 0;
        final int rows = Math.max(1, (keys.size() + COLUMNS - 1) / COLUMNS);
        final int width = PANEL_WIDTH * COLUMNS;
        final int height = PANEL_HEIGHT * rows + legendHeight;
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">%n", width, height, width, height));
        sb.append("<title>aiperf key metrics over builds</title>\n");
        if (keys.isEmpty()) {
            sb.append("<text x=\"16\" y=\"24\">No key metrics recorded yet.</text>\n");
        }
        if (legend) {
            for (int i = 0; i < names.size(); i++) {
                final int x = 16 + (i % 4) * 170;
                final int y = 14 + (i / 4) * LEGEND_ROW;
                sb.append(String.format(Locale.ROOT, "<g class=\"legend\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                        + "stroke=\"%s\" stroke-width=\"3\"/><text x=\"%d\" y=\"%d\">%s</text></g>%n", x, y - 4, x + 16,
                        y - 4, color(i), x + 20, y, escape(names.get(i))));
            }
        }
        for (int i = 0; i < keys.size(); i++) {
            panel(sb, keys.get(i), builds, names, (i % COLUMNS) * PANEL_WIDTH,
                    legendHeight + (i / COLUMNS) * PANEL_HEIGHT);
        }
        return sb.append("</svg>\n").toString();
    }

    private static String color(final int i) {
        return COLORS[i % COLORS.length];
    }

    private static void panel(final StringBuilder sb, final String key, final List<Build> builds,
                              final List<String> names, final int x0, final int y0) {
        final int plotW = PANEL_WIDTH - LEFT - RIGHT;
        final int plotH = PANEL_HEIGHT - TOP - BOTTOM;
        double max = 0;
        for (final Build b : builds) {
            for (final Map<String, Double> m : b.points().values()) {
                if (finite(m.get(key))) {
                    max = Math.max(max, m.get(key));
                }
            }
        }
        final double step = step(max > 0 ? max : 1);
        final double top = Math.max(step, Math.ceil(max / step - 1e-9) * step);
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
        for (double v = 0; v <= top + step * 1e-6; v += step) {
            final double py = axisY - plotH * v / top;
            sb.append(String.format(Locale.ROOT, "<text class=\"y-tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    LEFT - 4, py + 3, tick(v, step)));
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#444\" "
                    + "stroke-opacity=\"0.15\"/>%n", axisX, py, axisX + plotW, py));
        }
        final int n = builds.size();
        final int every = Math.max(1, (n + MAX_X_TICKS - 1) / MAX_X_TICKS);
        for (int i = 0; i < n; i++) {
            if (i % every == 0 || i == n - 1) {
                sb.append(String.format(Locale.ROOT, "<text class=\"x-tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                        px(i, n, plotW), axisY + 14, escape(builds.get(i).label())));
            }
        }
        for (int s = 0; s < names.size(); s++) {
            final String name = names.get(s);
            final StringBuilder line = new StringBuilder();
            final StringBuilder dots = new StringBuilder();
            for (int i = 0; i < n; i++) {
                final Build b = builds.get(i);
                final Map<String, Double> m = b.points().get(name);
                final Double v = m == null ? null : m.get(key);
                if (!finite(v)) {
                    continue;
                }
                final double px = px(i, n, plotW);
                final double py = axisY - plotH * v / top;
                line.append(line.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.1f,%.1f", px, py));
                final String dot = String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\">"
                        + "<title>%s%s: %s %s</title></circle>", px, py, color(s), escape(b.label()),
                        names.size() > 1 ? " " + escape(name) : "", number(v), escape(unit));
                // target _top: the chart is embedded as an object, and the build page should replace the job page
                dots.append(b.href() == null ? dot : "<a class=\"build\" href=\"" + escape(b.href())
                        + "\" target=\"_top\">" + dot + "</a>").append('\n');
            }
            sb.append(String.format(Locale.ROOT, "<polyline class=\"series\" data-metric=\"%s\" data-series=\"%s\" "
                    + "fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>%n", escape(key), escape(name),
                    color(s), line));
            sb.append(dots);
        }
        sb.append("</g>\n");
    }

    private static double px(final int i, final int n, final int plotW) {
        return LEFT + (n == 1 ? plotW / 2.0 : plotW * i / (double) (n - 1));
    }

    /** A round tick step (1, 2 or 5 times a power of ten) giving about four ticks up to {@code max}. */
    static double step(final double max) {
        final double raw = max / 4;
        final double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        final double norm = raw / mag;
        return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
    }

    private static boolean finite(final Double v) {
        return v != null && Double.isFinite(v);
    }

    /** A tick's label with the decimals its step needs, so no two ticks read the same (0.005, never 0.01 0.01). */
    static String tick(final double v, final double step) {
        final int decimals = Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9));
        return String.format(Locale.ROOT, "%." + decimals + "f", Math.abs(v) < step * 1e-6 ? 0 : v);
    }

    private static String number(final double v) {
        final String s = Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    private static String escape(final String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
