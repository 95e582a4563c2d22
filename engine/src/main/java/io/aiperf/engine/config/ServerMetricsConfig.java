package io.aiperf.engine.config;

import java.util.List;

/**
 * Scraping the servers' Prometheus metrics during profiling (src-docs/server-metrics.md); on by default, as AIPerf.
 *
 * @param urls every endpoint scraped: {@code {origin}/metrics} of each target URL, then the extra ones given
 * @param formats the export files written: {@code json} and/or {@code csv}
 * @param intervalSeconds time between scrapes while a profiling phase runs
 */
public record ServerMetricsConfig(boolean enabled, List<String> urls, List<String> formats, double intervalSeconds) {
    public static final ServerMetricsConfig OFF = new ServerMetricsConfig(false, List.of(), List.of(), 1.0);
}
