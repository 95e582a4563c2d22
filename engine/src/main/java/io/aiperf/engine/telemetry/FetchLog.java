package io.aiperf.engine.telemetry;

import java.util.Arrays;

/**
 * How one metrics endpoint answered over the window (the {@code endpoint_info} of server_metrics_export.json): when
 * it was fetched, how long a fetch took, and how often its text changed (a server that refreshes its metrics once a
 * second answers the same text to faster scrapes). Guarded by the collector's lock on its target.
 */
final class FetchLog {
    /** The most update times kept for the median interval; the count and the mean stay exact beyond it. */
    static final int MAX_UPDATES = 100_000;

    int fetches;
    long firstFetchEpochNanos;
    long lastFetchEpochNanos;
    private double latencyMillisSum;
    int updates;
    long firstUpdateEpochNanos;
    long lastUpdateEpochNanos;
    private long[] updateTimes = new long[16];
    private int kept;
    private int lastHash;
    private int lastLength = -1;

    /** One answered fetch: its wall-clock time, how long it took, and the text it returned. */
    void fetched(final long epochNanos, final double latencyMillis, final String text) {
        if (fetches++ == 0) {
            firstFetchEpochNanos = epochNanos;
        }
        lastFetchEpochNanos = epochNanos;
        latencyMillisSum += latencyMillis;
        final int hash = text.hashCode();
        if (text.length() == lastLength && hash == lastHash) {
            return; // the same text again: the server has not refreshed its metrics
        }
        lastHash = hash;
        lastLength = text.length();
        if (updates++ == 0) {
            firstUpdateEpochNanos = epochNanos;
        }
        lastUpdateEpochNanos = epochNanos;
        if (kept < MAX_UPDATES) {
            if (kept == updateTimes.length) {
                updateTimes = Arrays.copyOf(updateTimes, kept * 2);
            }
            updateTimes[kept++] = epochNanos;
        }
    }

    double avgLatencyMillis() {
        return fetches == 0 ? 0 : latencyMillisSum / fetches;
    }

    double updateSeconds() {
        return (lastUpdateEpochNanos - firstUpdateEpochNanos) / 1e9;
    }

    /** Mean time between changes of the text, ms (0 with one update). */
    double avgUpdateIntervalMillis() {
        return updates < 2 ? 0 : updateSeconds() * 1000 / (updates - 1);
    }

    /** Median time between changes of the text, ms, or NaN with fewer than two updates. */
    double medianUpdateIntervalMillis() {
        if (kept < 2) {
            return Double.NaN;
        }
        final double[] gaps = new double[kept - 1];
        for (int i = 1; i < kept; i++) {
            gaps[i - 1] = (updateTimes[i] - updateTimes[i - 1]) / 1e6;
        }
        Arrays.sort(gaps);
        final int mid = gaps.length / 2;
        return gaps.length % 2 == 1 ? gaps[mid] : (gaps[mid - 1] + gaps[mid]) / 2;
    }
}
