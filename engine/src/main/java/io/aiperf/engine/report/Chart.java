package io.aiperf.engine.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One SVG chart with axes, drawn with presentation attributes only (no CSS, no script), so it renders under a
 * Content-Security-Policy without {@code 'unsafe-inline'}, as Jenkins serves archived files. Text uses
 * {@code currentColor}, so it follows the page's light or dark scheme; series use mid-tone colours that read on both.
 * Axes have round ticks ({@link NiceAxis}) and start at zero; a share axis runs from 0 to 1; texts beside points are
 * placed where they cover nothing ({@link LabelPlacer}). The x axis is numeric, or
 * categorical (sweep points, in the order given). An optional right-hand axis has its own scale. Not thread-safe;
 * one chart per instance.
 */
final class Chart {
    static final String[] PALETTE = {"#3b82f6", "#f97316", "#10b981", "#ef4444", "#a855f7", "#eab308", "#06b6d4",
        "#ec4899", "#84cc16", "#64748b", "#f43f5e", "#14b8a6"};
    /** The colours of the runs of a comparison: the first (baseline) blue, the second (candidate) orange. */
    static final String[] RUN_COLORS = {PALETTE[0], PALETTE[1], PALETTE[2], PALETTE[4], PALETTE[6], PALETTE[7]};
    static final String LIMIT_COLOR = "#ef4444";
    /** Dash patterns that tell apart lines of one colour: solid first. */
    private static final String[] DASHES = {"", "6 4", "2 3", "10 3 2 3", "1 5", "12 4"};
    private static final int W = 820;
    private static final int H = 320;
    private static final int LEFT = 64;
    private static final int RIGHT = 56;
    private static final int TOP = 28;
    private static final int BOTTOM = 44;
    /** The legend's column, right of the plot, so it never covers data. */
    private static final int LEGEND_WIDTH = 190;

    private final StringBuilder body = new StringBuilder();
    private final String id;
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private List<String> categories;
    private boolean share;
    private double xMin = Double.POSITIVE_INFINITY;
    private double xMax = Double.NEGATIVE_INFINITY;
    private double yMax = Double.NEGATIVE_INFINITY;
    private double rightMax = Double.NEGATIVE_INFINITY;
    private String rightLabel;
    private NiceAxis xAxis;
    private NiceAxis yAxis;
    private NiceAxis rightAxis;
    private final List<String[]> legend = new ArrayList<>();
    /** The points drawn (px), so that no label covers a dot. */
    private final List<double[]> dots = new ArrayList<>();
    /** The texts beside points, placed when the chart is drawn: x, y (px) and text. */
    private final List<Object[]> labels = new ArrayList<>();
    private String series;

    Chart(final String id, final String title, final String xLabel, final String yLabel) {
        this.id = id;
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /** The series (run) the next elements belong to, named in their {@code data-series} attribute. */
    Chart series(final String name) {
        this.series = name;
        return this;
    }

    private String seriesAttribute() {
        return series == null ? "" : " data-series=\"" + Html.escape(series) + "\"";
    }

    /** A categorical x axis: value {@code i} is {@code names.get(i)}. */
    Chart categories(final List<String> names) {
        this.categories = List.copyOf(names);
        fit(new double[] {-0.5, names.size() - 0.5}, new double[0]);
        return this;
    }

    /** The y axis is a share of the whole, from 0 to 1 (a cumulative distribution), whatever the values. */
    Chart share() {
        this.share = true;
        return this;
    }

    /** A right-hand y axis, from zero, with this label. */
    Chart rightAxis(final String label) {
        this.rightLabel = label;
        return this;
    }

    /** Widens the axes to hold these values (call for every series before drawing). */
    Chart fit(final double[] xs, final double[] ys) {
        for (final double x : xs) {
            if (Double.isFinite(x)) {
                xMin = Math.min(xMin, x);
                xMax = Math.max(xMax, x);
            }
        }
        for (final double y : ys) {
            if (Double.isFinite(y)) {
                yMax = Math.max(yMax, y);
            }
        }
        return this;
    }

    /** Widens the right-hand axis to hold these values. */
    Chart fitRight(final double[] ys) {
        for (final double y : ys) {
            if (Double.isFinite(y)) {
                rightMax = Math.max(rightMax, y);
            }
        }
        return this;
    }

    boolean empty() {
        return !(xMax >= xMin) || !(yMax >= 0) && !(rightMax >= 0);
    }

    private void axes() {
        if (xAxis != null) {
            return;
        }
        if (categories != null) {
            xAxis = new NiceAxis(-0.5, categories.size() - 0.5, 1);
        } else {
            // From zero, as src-docs/report.md promises: a latency or a time reads against nothing, not a zoom.
            final double lo = Math.min(0, xMin);
            xAxis = NiceAxis.of(lo, xMax > lo ? xMax : lo + 1);
        }
        yAxis = share ? new NiceAxis(0, 1, 0.2)
                : NiceAxis.of(0, yMax > 0 ? yMax * 1.04 : 1); // room above the highest point for its label
        rightAxis = NiceAxis.of(0, rightMax > 0 ? rightMax : 1);
    }

    private double px(final double x) {
        axes();
        return LEFT + (x - xAxis.lo()) / (xAxis.hi() - xAxis.lo()) * (W - LEGEND_WIDTH - LEFT - RIGHT);
    }

    private double py(final double y) {
        axes();
        return TOP + (yAxis.hi() - y) / (yAxis.hi() - yAxis.lo()) * (H - TOP - BOTTOM);
    }

    private double pyRight(final double y) {
        axes();
        return TOP + (rightAxis.hi() - y) / (rightAxis.hi() - rightAxis.lo()) * (H - TOP - BOTTOM);
    }

    void line(final double[] xs, final double[] ys, final String color, final String cssClass) {
        line(xs, ys, color, cssClass, 0, false);
    }

    private static String dashArray(final int dash) {
        final String d = DASHES[dash % DASHES.length];
        return d.isEmpty() ? "" : " stroke-dasharray=\"" + d + "\"";
    }

    /** A polyline; {@code dash} tells apart lines of the same colour (0 solid), {@code right}: right-hand axis. */
    void line(final double[] xs, final double[] ys, final String color, final String cssClass, final int dash,
              final boolean right) {
        final StringBuilder pts = new StringBuilder();
        for (int i = 0; i < xs.length; i++) {
            if (Double.isFinite(xs[i]) && Double.isFinite(ys[i])) {
                pts.append(f(px(xs[i]))).append(',').append(f(right ? pyRight(ys[i]) : py(ys[i]))).append(' ');
            }
        }
        body.append("<polyline class=\"").append(cssClass).append('"').append(seriesAttribute())
                .append(" fill=\"none\" stroke=\"").append(color)
                .append("\" stroke-width=\"2\"").append(dashArray(dash))
                .append(" points=\"").append(pts.toString().trim()).append("\"/>\n");
    }

    void point(final double x, final double y, final String color, final String cssClass, final String label) {
        point(x, y, color, cssClass, label, label);
    }

    /** A dot with a tooltip, and a short text beside it (none when {@code text} is empty). */
    void point(final double x, final double y, final String color, final String cssClass, final String tooltip,
               final String text) {
        dot(x, y, 5, color, cssClass, tooltip);
        if (!text.isEmpty()) {
            labels.add(new Object[] {px(x), py(y), text});
        }
    }

    /** A small dot without a label: one request of a scatter. */
    void mark(final double x, final double y, final String color, final String cssClass, final String tooltip) {
        dot(x, y, 2, color, cssClass, tooltip);
    }

    private void dot(final double x, final double y, final int radius, final String color, final String cssClass,
                     final String tooltip) {
        dots.add(new double[] {px(x), py(y), radius});
        body.append("<circle class=\"").append(cssClass).append('"').append(seriesAttribute())
                .append(" cx=\"").append(f(px(x))).append("\" cy=\"").append(f(py(y))).append("\" r=\"")
                .append(radius).append("\" fill=\"").append(color).append('"');
        if (tooltip.isEmpty()) {
            body.append("/>\n");
        } else {
            body.append("><title>").append(Html.escape(tooltip)).append("</title></circle>\n");
        }
    }

    /** The points' texts, each where it covers no dot and no other text (src-docs/report.md). */
    private void pointLabels(final StringBuilder sb) {
        final LabelPlacer placer = new LabelPlacer(LEFT, TOP, W - LEGEND_WIDTH - RIGHT, H - BOTTOM);
        dots.forEach(d -> placer.reserve(d[0], d[1], d[2]));
        for (final Object[] l : labels) {
            final double[] at = placer.place((double) l[0], (double) l[1], (String) l[2]);
            if (at != null) {
                sb.append("<text class=\"point-label\" x=\"").append(f(at[0])).append("\" y=\"").append(f(at[1]))
                        .append("\" font-size=\"11\" fill=\"currentColor\">").append(Html.escape((String) l[2]))
                        .append("</text>\n");
            }
        }
    }

    /** A vertical bar from {@code lo} to {@code hi} with a dot at {@code mid}: a value and its confidence interval. */
    void interval(final double x, final double lo, final double mid, final double hi, final String color,
                  final String label) {
        if (Double.isFinite(lo) && Double.isFinite(hi)) {
            body.append("<line class=\"ci-bar\"").append(seriesAttribute())
                    .append(" x1=\"").append(f(px(x))).append("\" x2=\"").append(f(px(x)))
                    .append("\" y1=\"").append(f(py(lo))).append("\" y2=\"").append(f(py(hi))).append("\" stroke=\"")
                    .append(color).append("\" stroke-width=\"3\"><title>").append(Html.escape(label))
                    .append("</title></line>\n");
        }
        point(x, mid, color, "ci-mean", label, "");
    }

    /** A short dashed horizontal mark at {@code y} across {@code x +- halfWidth}: a gate's limit. */
    void limit(final double x, final double halfWidth, final double y, final String label) {
        body.append("<line class=\"limit\"").append(seriesAttribute())
                .append(" x1=\"").append(f(px(x - halfWidth))).append("\" x2=\"")
                .append(f(px(x + halfWidth))).append("\" y1=\"").append(f(py(y))).append("\" y2=\"").append(f(py(y)))
                .append("\" stroke=\"").append(LIMIT_COLOR).append("\" stroke-width=\"2\" stroke-dasharray=\"4 3\">")
                .append("<title>").append(Html.escape(label)).append("</title></line>\n");
    }

    /** Adds an entry to the legend (drawn top right). */
    Chart key(final String name, final String color, final int dash) {
        legend.add(new String[] {name, color, String.valueOf(dash)});
        return this;
    }

    void legend(final List<String> names) {
        for (int i = 0; i < names.size(); i++) {
            key(names.get(i), PALETTE[i % PALETTE.length], 0);
        }
    }

    String svg() {
        axes();
        final StringBuilder sb = new StringBuilder();
        sb.append("<svg id=\"").append(id).append("\" xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(W)
                .append("\" height=\"").append(H).append("\" viewBox=\"0 0 ").append(W).append(' ').append(H)
                .append("\" font-family=\"sans-serif\" role=\"img\" aria-label=\"").append(Html.escape(title))
                .append("\">\n");
        sb.append("<text x=\"").append(LEFT).append("\" y=\"16\" font-size=\"13\" font-weight=\"bold\" "
                + "fill=\"currentColor\">").append(Html.escape(title)).append("</text>\n");
        final int x0 = LEFT;
        final int x1 = W - LEGEND_WIDTH - RIGHT;
        final int y0 = H - BOTTOM;
        sb.append("<line x1=\"").append(x0).append("\" y1=\"").append(y0).append("\" x2=\"").append(x1)
                .append("\" y2=\"").append(y0).append("\" stroke=\"currentColor\" stroke-opacity=\"0.6\"/>\n");
        sb.append("<line x1=\"").append(x0).append("\" y1=\"").append(TOP).append("\" x2=\"").append(x0)
                .append("\" y2=\"").append(y0).append("\" stroke=\"currentColor\" stroke-opacity=\"0.6\"/>\n");
        if (!empty()) {
            if (categories != null) {
                for (int i = 0; i < categories.size(); i++) {
                    sb.append("<text class=\"x-tick\" x=\"").append(f(px(i))).append("\" y=\"").append(y0 + 16)
                            .append("\" font-size=\"10\" text-anchor=\"middle\" fill=\"currentColor\">")
                            .append(Html.escape(categories.get(i))).append("</text>\n");
                }
            } else {
                for (final double xv : xAxis.ticks()) {
                    sb.append("<text class=\"x-tick\" x=\"").append(f(px(xv))).append("\" y=\"").append(y0 + 16)
                            .append("\" font-size=\"10\" text-anchor=\"middle\" fill=\"currentColor\">")
                            .append(xAxis.label(xv)).append("</text>\n");
                }
            }
            for (final double yv : yAxis.ticks()) {
                sb.append("<text class=\"y-tick\" x=\"").append(x0 - 6).append("\" y=\"").append(f(py(yv) + 3))
                        .append("\" font-size=\"10\" text-anchor=\"end\" fill=\"currentColor\">").append(yAxis.label(yv))
                        .append("</text>\n");
                sb.append("<line x1=\"").append(x0).append("\" y1=\"").append(f(py(yv))).append("\" x2=\"")
                        .append(x1).append("\" y2=\"").append(f(py(yv)))
                        .append("\" stroke=\"currentColor\" stroke-opacity=\"0.12\"/>\n");
            }
            if (rightLabel != null) {
                sb.append("<line x1=\"").append(x1).append("\" y1=\"").append(TOP).append("\" x2=\"").append(x1)
                        .append("\" y2=\"").append(y0).append("\" stroke=\"currentColor\" stroke-opacity=\"0.6\"/>\n");
                for (final double yv : rightAxis.ticks()) {
                    sb.append("<text class=\"y-tick-right\" x=\"").append(x1 + 6).append("\" y=\"")
                            .append(f(pyRight(yv) + 3)).append("\" font-size=\"10\" fill=\"currentColor\">")
                            .append(rightAxis.label(yv)).append("</text>\n");
                }
                final int mid = (H + TOP - BOTTOM) / 2;
                sb.append("<text x=\"").append(x1 + RIGHT - 10).append("\" y=\"").append(mid).append("\" font-size=\"11\" "
                        + "text-anchor=\"middle\" fill=\"currentColor\" transform=\"rotate(90 ").append(x1 + RIGHT - 10)
                        .append(' ').append(mid).append(")\">").append(Html.escape(rightLabel)).append("</text>\n");
            }
        }
        sb.append("<text x=\"").append((x1 + LEFT) / 2).append("\" y=\"").append(H - 8)
                .append("\" font-size=\"11\" text-anchor=\"middle\" fill=\"currentColor\">").append(Html.escape(xLabel))
                .append("</text>\n");
        final int mid = (H + TOP - BOTTOM) / 2;
        sb.append("<text x=\"14\" y=\"").append(mid).append("\" font-size=\"11\" text-anchor=\"middle\" "
                + "fill=\"currentColor\" transform=\"rotate(-90 14 ").append(mid).append(")\">")
                .append(Html.escape(yLabel)).append("</text>\n");
        sb.append(body);
        pointLabels(sb);
        for (int i = 0; i < legend.size(); i++) {
            final String[] k = legend.get(i);
            final int y = TOP + 4 + 14 * i;
            final int lx = W - LEGEND_WIDTH + 4;
            sb.append("<line class=\"legend\" x1=\"").append(lx).append("\" y1=\"").append(y - 4).append("\" x2=\"")
                    .append(lx + 14).append("\" y2=\"").append(y - 4).append("\" stroke=\"").append(k[1])
                    .append("\" stroke-width=\"3\"").append(dashArray(Integer.parseInt(k[2])))
                    .append("/><text class=\"legend-name\" x=\"").append(lx + 18).append("\" y=\"").append(y)
                    .append("\" font-size=\"11\" fill=\"currentColor\">").append(Html.escape(k[0])).append("</text>\n");
        }
        sb.append("</svg>\n");
        return sb.toString();
    }

    private static String f(final double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** A tick or value label: no more digits than it needs (round ticks print as 0, 0.5, 20, 1,500). */
    static String num(final double v) {
        final double a = Math.abs(v);
        if (a < 1e-9) {
            return "0";
        }
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        final String s = a >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}
