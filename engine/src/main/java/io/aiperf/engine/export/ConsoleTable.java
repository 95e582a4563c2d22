package io.aiperf.engine.export;

import io.aiperf.engine.metrics.MetricValue;
import io.aiperf.engine.metrics.MetricsSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The end-of-run table (AIPerf's export docs): columns avg, min, max, p99, p90, p50, std; single values show N/A.
 * Metrics the catalogue keeps off the console (usage counts, totals, ...) are in the files only.
 */
public final class ConsoleTable {
    private static final String[] COLUMNS = {"avg", "min", "max", "p99", "p90", "p50", "std"};

    private ConsoleTable() {
    }

    public static String render(final String title, final MetricsSummary summary) {
        final List<String[]> rows = new ArrayList<>();
        for (final MetricValue m : summary.metrics().values()) {
            if (!m.spec().console()) {
                continue; // in the JSON and CSV exports only, as AIPerf's console hides them
            }
            final String[] row = new String[COLUMNS.length + 1];
            row[0] = SummaryCsvWriter.name(m);
            for (int i = 0; i < COLUMNS.length; i++) {
                if (m.stats() == null) {
                    row[i + 1] = i == 0 ? format(m.value()) : "N/A";
                } else {
                    row[i + 1] = format(m.stats().get(COLUMNS[i]));
                }
            }
            rows.add(row);
        }
        final int[] width = new int[COLUMNS.length + 1];
        width[0] = "Metric".length();
        for (int i = 0; i < COLUMNS.length; i++) {
            width[i + 1] = COLUMNS[i].length();
        }
        for (final String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        final StringBuilder sb = new StringBuilder();
        sb.append(title).append('\n');
        final String[] header = new String[COLUMNS.length + 1];
        header[0] = "Metric";
        System.arraycopy(COLUMNS, 0, header, 1, COLUMNS.length);
        line(sb, header, width);
        final StringBuilder rule = new StringBuilder();
        for (final int w : width) {
            rule.append("-".repeat(w)).append("  ");
        }
        sb.append(rule.toString().stripTrailing()).append('\n');
        rows.forEach(row -> line(sb, row, width));
        return sb.toString();
    }

    private static void line(final StringBuilder sb, final String[] cells, final int[] width) {
        final StringBuilder l = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            final String c = cells[i];
            l.append(i == 0 ? pad(c, width[i], true) : pad(c, width[i], false)).append("  ");
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }

    private static String pad(final String s, final int w, final boolean left) {
        final String fill = " ".repeat(Math.max(0, w - s.length()));
        return left ? s + fill : fill + s;
    }

    private static String format(final double v) {
        return Numbers.isIntegral(v) ? String.format(Locale.ROOT, "%,d", (long) v) : String.format(Locale.ROOT, "%,.2f", v);
    }
}
