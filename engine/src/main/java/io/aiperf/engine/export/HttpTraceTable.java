package io.aiperf.engine.export;

import io.aiperf.engine.metrics.HttpTraceMetrics;
import io.aiperf.engine.metrics.MetricSpec;
import io.aiperf.engine.metrics.MetricValue;
import io.aiperf.engine.metrics.MetricsSummary;
import java.util.Locale;

/**
 * The console's HTTP trace timing table ({@code --show-trace-timing}, as upstream prints it after the metrics
 * table): the summary's HTTP trace metrics of the profiling requests, in upstream's display order and names.
 */
public final class HttpTraceTable {
    private static final String[] COLUMNS = {"avg", "min", "max", "p99", "p90", "p50", "std"};
    private static final int NAME_WIDTH = 34;

    private HttpTraceTable() {
    }

    /** The table of {@code summary}'s HTTP trace metrics; only its header when no request was timed. */
    public static String render(final MetricsSummary summary) {
        final StringBuilder sb = new StringBuilder("AIPerf (Java) | HTTP Trace Timing\n");
        final StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-" + NAME_WIDTH + "s", "Metric"));
        for (final String c : COLUMNS) {
            header.append(String.format(Locale.ROOT, "  %10s", c));
        }
        sb.append(header.toString().stripTrailing()).append('\n');
        sb.append("-".repeat(header.length())).append('\n');
        for (final MetricSpec spec : HttpTraceMetrics.ALL) {
            final MetricValue m = summary.get(spec.tag());
            if (m == null || m.stats() == null) {
                continue;
            }
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-" + NAME_WIDTH + "s",
                    SummaryCsvWriter.name(m)));
            for (final String c : COLUMNS) {
                line.append(String.format(Locale.ROOT, "  %,10.2f", m.stats().get(c)));
            }
            sb.append(line).append('\n');
        }
        return sb.toString();
    }
}
