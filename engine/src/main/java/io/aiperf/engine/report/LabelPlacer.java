package io.aiperf.engine.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the short texts beside a chart's points go so that none covers another: each label tries the four corners
 * around its point, then a step further out, and takes the first spot that overlaps no label placed before and stays
 * inside the plot; a label with no free spot is left out (its point keeps its tooltip). Text width is estimated from
 * the character count, which is close enough for the chart's small sans-serif labels. Not thread-safe.
 */
final class LabelPlacer {
    /** Estimated width of one character of an 11 px sans-serif label, in px. */
    private static final double CHAR_WIDTH = 6.2;
    private static final double HEIGHT = 12;
    private static final double GAP = 7;

    private final double left;
    private final double top;
    private final double right;
    private final double bottom;
    private final List<double[]> taken = new ArrayList<>();

    /** A placer for labels inside the plot area {@code left..right}, {@code top..bottom} (px). */
    LabelPlacer(final double left, final double top, final double right, final double bottom) {
        this.left = left;
        this.top = top;
        this.right = right;
        this.bottom = bottom;
    }

    /** Marks a point's dot as taken, so that no label covers it. */
    void reserve(final double x, final double y, final double radius) {
        taken.add(new double[] {x - radius, y - radius, x + radius, y + radius});
    }

    /**
     * The baseline-left corner for {@code text} beside the point at ({@code x}, {@code y}), or null when every spot
     * tried is taken.
     */
    double[] place(final double x, final double y, final String text) {
        final double w = text.length() * CHAR_WIDTH;
        for (int ring = 1; ring <= 3; ring++) {
            final double d = GAP * ring;
            final double[][] spots = {{x + d, y - d}, {x + d, y + d + HEIGHT - 2}, {x - d - w, y - d},
                {x - d - w, y + d + HEIGHT - 2}};
            for (final double[] s : spots) {
                final double[] box = {s[0], s[1] - HEIGHT + 2, s[0] + w, s[1] + 2};
                if (inside(box) && taken.stream().noneMatch(t -> overlaps(t, box))) {
                    taken.add(box);
                    return s;
                }
            }
        }
        return null;
    }

    private boolean inside(final double[] b) {
        return b[0] >= left && b[2] <= right && b[1] >= top - HEIGHT && b[3] <= bottom;
    }

    private static boolean overlaps(final double[] a, final double[] b) {
        return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
    }
}
