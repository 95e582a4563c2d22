package io.aiperf.engine.telemetry;

import java.util.List;
import java.util.Map;

/**
 * One metric as the server-metrics export shows it (src-docs/server-metrics.md): its name (a counter's without
 * {@code _total}), its type ({@code gauge}, {@code counter}, {@code histogram} or {@code unknown}), its help text,
 * its unit (or null), and one entry per endpoint and label set.
 */
record ExportedMetric(String name, String type, String description, String unit, List<Entry> series) {
    static final String GAUGE = "gauge";
    static final String COUNTER = "counter";
    static final String HISTOGRAM = "histogram";
    static final String UNKNOWN = "unknown";

    /**
     * One series' statistics over the profiling window.
     *
     * @param endpointUrl the scraped URL
     * @param labels its labels (a histogram's without {@code le}), empty when it has none
     * @param stats by name, in the export's order: {@link Long} for counts, {@link Double} otherwise
     * @param buckets a histogram's observations per upper bound over the window (cumulative, as Prometheus counts
     *     them), or null
     */
    record Entry(String endpointUrl, Map<String, String> labels, Map<String, Number> stats,
                 Map<String, Long> buckets) {
    }

    /** Info metrics ({@code *_info}) carry configuration in their labels, not a measurement. */
    boolean info() {
        return name.endsWith("_info");
    }
}
