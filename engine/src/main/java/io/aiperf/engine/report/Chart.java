package io.aiperf.engine.report;

import java.util.List;
import java.util.Locale;

/**
 * One SVG chart with axes, drawn with presentation attributes only (no CSS, no script), so it renders under a
 * Content-Security-Policy without {@code 'unsafe-inline'}, as Jenkins serves archived files. Text uses
 * {@code currentColor}, so it follows the page's light or dark scheme; series use mid-tone colours that read on both.
 * Not thread-safe; one chart per instance.
 */
final class Chart {
    static final String[] PALETTE = {"#3b82f6", "#f97316", "#10b981", "#ef4444", "#a855f7", "#eab308", "#06b6d4",
        "#ec4899", "#84cc16", "#64748b", "#f43f5e", "#14b8a6"};
    private static final int W = 640;
    private static final int H = 320;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 28;
    private static final int BOTTOM = 44;

    private final StringBuilder body = new StringBuilder();
    private final String id;
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private double xMin = Double.POSITIVE_INFINITY;
    private double xMax = Double.NEGATIVE_INFINITY;
    private double yMin = 0;
    private double yMax = Double.NEGATIVE_INFINITY;

    Chart(final String id, final String title, final String xLabel, final String yLabel) {
        this.id = id;
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
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
                yMin = Math.min(yMin, y);
                yMax = Math.max(yMax, y);
            }
        }
        return this;
    }

    boolean empty() {
        return !(xMax >= xMin) || !(yMax >= yMin);
    }

    /** The x axis's low end and span: the data's range with 8% room each side, so end labels stay inside. */
    private double xLo() {
        final double span = xMax > xMin ? xMax - xMin : Math.max(1, Math.abs(xMin));
        return xMin - 0.08 * span - (xMax > xMin ? 0 : span / 2);
    }

    private double xSpan() {
        final double span = xMax > xMin ? xMax - xMin : Math.max(1, Math.abs(xMin));
        return span * 1.16 + (xMax > xMin ? 0 : span);
    }

    private double px(final double x) {
        return LEFT + (x - xLo()) / xSpan() * (W - LEFT - RIGHT - 60);
    }

    private double py(final double y) {
        final double top = yMax > yMin ? yMax * 1.05 : yMin + 1;
        return TOP + (top - y) / (top - yMin) * (H - TOP - BOTTOM);
    }

    void line(final double[] xs, final double[] ys, final String color, final String cssClass) {
        final StringBuilder pts = new StringBuilder();
        for (int i = 0; i < xs.length; i++) {
            if (Double.isFinite(xs[i]) && Double.isFinite(ys[i])) {
                pts.append(f(px(xs[i]))).append(',').append(f(py(ys[i]))).append(' ');
            }
        }
        body.append("<polyline class=\"").append(cssClass).append("\" fill=\"none\" stroke=\"").append(color)
                .append("\" stroke-width=\"2\" points=\"").append(pts.toString().trim()).append("\"/>\n");
    }

    void point(final double x, final double y, final String color, final String cssClass, final String label) {
        body.append("<circle class=\"").append(cssClass).append("\" cx=\"").append(f(px(x))).append("\" cy=\"")
                .append(f(py(y))).append("\" r=\"5\" fill=\"").append(color).append("\"><title>")
                .append(Html.escape(label)).append("</title></circle>\n");
        body.append("<text x=\"").append(f(px(x) + 7)).append("\" y=\"").append(f(py(y) - 7))
                .append("\" font-size=\"11\" fill=\"currentColor\">").append(Html.escape(label)).append("</text>\n");
    }

    /** A vertical bar from {@code lo} to {@code hi} with a dot at {@code mid}: a mean and its confidence interval. */
    void interval(final double x, final double lo, final double mid, final double hi, final String color,
                  final String label) {
        body.append("<line class=\"ci-bar\" x1=\"").append(f(px(x))).append("\" x2=\"").append(f(px(x)))
                .append("\" y1=\"").append(f(py(lo))).append("\" y2=\"").append(f(py(hi))).append("\" stroke=\"")
                .append(color).append("\" stroke-width=\"3\"/>\n");
        point(x, mid, color, "ci-mean", label);
    }

    void legend(final List<String> names) {
        for (int i = 0; i < names.size(); i++) {
            final int y = TOP + 4 + 14 * i;
            body.append("<rect x=\"").append(W - RIGHT - 150).append("\" y=\"").append(y - 9)
                    .append("\" width=\"10\" height=\"10\" fill=\"").append(PALETTE[i % PALETTE.length]).append("\"/>")
                    .append("<text x=\"").append(W - RIGHT - 136).append("\" y=\"").append(y)
                    .append("\" font-size=\"11\" fill=\"currentColor\">").append(Html.escape(names.get(i)))
                    .append("</text>\n");
        }
    }

    String svg() {
        final StringBuilder sb = new StringBuilder();
        sb.append("<svg id=\"").append(id).append("\" xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(W)
                .append("\" height=\"").append(H).append("\" viewBox=\"0 0 ").append(W).append(' ').append(H)
                .append("\" role=\"img\" aria-label=\"").append(Html.escape(title)).append("\">\n");
        sb.append("<text x=\"").append(LEFT).append("\" y=\"16\" font-size=\"13\" font-weight=\"bold\" "
                + "fill=\"currentColor\">").append(Html.escape(title)).append("</text>\n");
        final int x0 = LEFT;
        final int y0 = H - BOTTOM;
        sb.append("<line x1=\"").append(x0).append("\" y1=\"").append(y0).append("\" x2=\"").append(W - RIGHT)
                .append("\" y2=\"").append(y0).append("\" stroke=\"currentColor\" stroke-opacity=\"0.6\"/>\n");
        sb.append("<line x1=\"").append(x0).append("\" y1=\"").append(TOP).append("\" x2=\"").append(x0)
                .append("\" y2=\"").append(y0).append("\" stroke=\"currentColor\" stroke-opacity=\"0.6\"/>\n");
        if (!empty()) {
            for (int i = 0; i <= 4; i++) {
                final double xv = xLo() + xSpan() * i / 4;
                sb.append("<text x=\"").append(f(px(xv))).append("\" y=\"").append(y0 + 16)
                        .append("\" font-size=\"10\" text-anchor=\"middle\" fill=\"currentColor\">").append(num(xv))
                        .append("</text>\n");
                final double top = yMax > yMin ? yMax * 1.05 : yMin + 1;
                final double yv = yMin + (top - yMin) * i / 4;
                sb.append("<text x=\"").append(x0 - 6).append("\" y=\"").append(f(py(yv) + 3))
                        .append("\" font-size=\"10\" text-anchor=\"end\" fill=\"currentColor\">").append(num(yv))
                        .append("</text>\n");
                sb.append("<line x1=\"").append(x0).append("\" y1=\"").append(f(py(yv))).append("\" x2=\"")
                        .append(W - RIGHT).append("\" y2=\"").append(f(py(yv)))
                        .append("\" stroke=\"currentColor\" stroke-opacity=\"0.12\"/>\n");
            }
        }
        sb.append("<text x=\"").append((W + LEFT) / 2).append("\" y=\"").append(H - 8)
                .append("\" font-size=\"11\" text-anchor=\"middle\" fill=\"currentColor\">").append(Html.escape(xLabel))
                .append("</text>\n");
        sb.append("<text x=\"14\" y=\"").append((H + TOP - BOTTOM) / 2).append("\" font-size=\"11\" "
                + "text-anchor=\"middle\" fill=\"currentColor\" transform=\"rotate(-90 14 ").append((H + TOP - BOTTOM) / 2)
                .append(")\">").append(Html.escape(yLabel)).append("</text>\n");
        sb.append(body);
        sb.append("</svg>\n");
        return sb.toString();
    }

    private static String f(final double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static String num(final double v) {
        final double a = Math.abs(v);
        return a >= 1000 ? String.format(Locale.ROOT, "%,.0f", v) : a >= 10 ? String.format(Locale.ROOT, "%.1f", v)
                : String.format(Locale.ROOT, "%.2f", v);
    }
}
