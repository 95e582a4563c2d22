package io.aiperf.engine.export;

import io.aiperf.engine.metrics.Distribution;
import io.aiperf.engine.metrics.Stats;
import io.aiperf.engine.record.RequestRecord;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The console's HTTP trace timing table ({@code --show-trace-timing}, as upstream prints it after the metrics
 * table): the k6-style phases of the profiling requests, in milliseconds, with the share of reused connections.
 * Fed one record at a time by the records writer. Not thread-safe.
 */
public final class HttpTraceTable implements AutoCloseable {
    private static final String[] COLUMNS = {"avg", "min", "max", "p99", "p90", "p50", "std"};
    private final Map<String, ToDoubleFunction<HttpTrace.Timing>> rows = new LinkedHashMap<>();
    private final Map<String, Distribution> values = new LinkedHashMap<>();
    private long reused;
    private long counted;

    public HttpTraceTable() {
        rows.put("HTTP Blocked (ms)", t -> zero(t.blocked()));
        rows.put("HTTP Connecting (ms)", t -> zero(t.connecting()));
        rows.put("HTTP Sending (ms)", HttpTrace.Timing::sending);
        rows.put("HTTP Waiting (TTFB) (ms)", HttpTrace.Timing::waiting);
        rows.put("HTTP Receiving (ms)", HttpTrace.Timing::receiving);
        rows.put("HTTP Duration (ms)", HttpTrace.Timing::duration);
        rows.put("HTTP Total (ms)", HttpTrace.Timing::total);
        rows.keySet().forEach(k -> values.put(k, new Distribution()));
    }

    /** Adds a profiling request. */
    public void add(final RequestRecord r) {
        final HttpTrace.Timing t = HttpTrace.timing(r);
        rows.forEach((name, f) -> {
            final double v = f.applyAsDouble(t);
            if (!Double.isNaN(v)) {
                values.get(name).add(v / 1e6);
            }
        });
        if (r.response().transport().issuedNanos() >= 0) {
            counted++;
            reused += t.reused() ? 1 : 0;
        }
    }

    /** The table, or a line saying there was nothing to time. */
    public String render() {
        final StringBuilder sb = new StringBuilder("AIPerf (Java) | HTTP Trace Timing\n");
        final StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-26s", "Metric"));
        for (final String c : COLUMNS) {
            header.append(String.format(Locale.ROOT, "  %10s", c));
        }
        sb.append(header.toString().stripTrailing()).append('\n');
        sb.append("-".repeat(header.length())).append('\n');
        values.forEach((name, dist) -> {
            if (dist.count() == 0) {
                return;
            }
            final Stats s = dist.stats();
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-26s", name));
            for (final String c : COLUMNS) {
                line.append(String.format(Locale.ROOT, "  %,10.2f", s.get(c)));
            }
            sb.append(line).append('\n');
        });
        if (counted > 0) {
            sb.append(String.format(Locale.ROOT, "%-26s  %,10.2f%n", "HTTP Connection Reused", (double) reused / counted));
        }
        return sb.toString();
    }

    private static double zero(final double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    @Override
    public void close() {
        values.values().forEach(Distribution::close);
    }
}
