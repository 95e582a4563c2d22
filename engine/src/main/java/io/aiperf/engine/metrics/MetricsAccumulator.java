package io.aiperf.engine.metrics;

import io.aiperf.engine.record.ErrorDetails;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Folds the per-request metrics of one phase into its summary (AIPerf's metrics reference), one record at a time and
 * in bounded memory: every distribution is a {@link Distribution}, the run-level values are running totals, and the
 * error summary keeps up to {@value #MAX_DISTINCT_ERRORS} distinct errors; only the {@link SweepLine} keeps 32 bytes
 * a request. Run-level values cover the window {@code max(start + latency) - min(start)} of the valid records. Not
 * thread-safe: one record processor feeds it.
 */
public final class MetricsAccumulator implements AutoCloseable {
    static final int MAX_DISTINCT_ERRORS = 1000;
    private static final ErrorDetails OTHER_ERRORS = new ErrorDetails(null, "OtherErrors",
            "more distinct errors than the summary keeps; every one is in profile_export.jsonl");

    /** One distribution: its spec and its values in display units. */
    private record Column(MetricSpec spec, Distribution values) {
    }

    private final Map<String, Double> slos;
    private final List<Column> columns = new ArrayList<>();
    private final Distribution icl = new Distribution();
    private final Distribution errorIsl = new Distribution();
    private final Distribution creditToStart = new Distribution();
    private final Distribution effectiveLatency = new Distribution();
    private final SweepLine sweepLine = new SweepLine();
    private final Map<ErrorDetails, Long> errorCounts = new LinkedHashMap<>();
    private long valid;
    private long errors;
    private long minStart = Long.MAX_VALUE;
    private long maxEnd = Long.MIN_VALUE;
    private double totalIsl;
    private double totalOsl;
    private boolean anyOsl;
    private long totalOutputTokens;
    private long totalReasoningTokens;
    private boolean anyReasoning;
    private long totalErrorIsl;
    private long good;
    private long compared;
    private long clientTokens;
    private long serverTokens;
    private long oslRequests;
    private long requestedTokens;
    private long deliveredTokens;
    private final long[] usageTotals = new long[3]; // prompt, completion, total: the server's usage, summed
    private final boolean[] anyUsage = new boolean[3];
    private long usageCacheReadTotal;
    private boolean anyUsageCacheRead;
    private long usageDiscrepancies;
    private long oslMismatches;
    private boolean anyPromptDiff;
    /** A fixed schedule's send lag (upstream's replay_sched_* metrics), or null for any other load. */
    private final ReplayScheduleLag replayLag;

    /** @param slos goodput thresholds by tag in display units; empty for no goodput */
    public MetricsAccumulator(final Map<String, Double> slos) {
        this(slos, false);
    }

    /** @param fixedSchedule the phase replays a fixed schedule: its send lag is summarised too */
    public MetricsAccumulator(final Map<String, Double> slos, final boolean fixedSchedule) {
        this.slos = slos;
        this.replayLag = fixedSchedule ? new ReplayScheduleLag() : null;
        MetricRegistry.PER_RECORD.forEach(spec -> columns.add(new Column(spec, new Distribution())));
    }

    public void add(final RecordMetrics m) {
        addQueueTimes(m);
        sweepLine.add(m);
        if (!m.valid()) {
            errors++;
            if (m.isl() >= 0) {
                errorIsl.add(m.isl());
                totalErrorIsl += m.isl();
            }
            final ErrorDetails e = errorCounts.containsKey(m.error()) || errorCounts.size() < MAX_DISTINCT_ERRORS
                    ? m.error() : OTHER_ERRORS;
            errorCounts.merge(e, 1L, Long::sum);
            return;
        }
        valid++;
        if (replayLag != null) {
            replayLag.add(m.scheduleDelayNanos());
        }
        for (final Column c : columns) {
            c.values().add(c.spec().displayValue(m));
        }
        if (m.iclNanos() != null) {
            for (final double d : m.iclNanos()) {
                icl.add(d / MetricRegistry.ICL.nanosToDisplay());
            }
        }
        minStart = Math.min(minStart, m.startEpochNanos());
        maxEnd = Math.max(maxEnd, m.startEpochNanos() + (long) m.latencyNanos());
        if (m.isl() >= 0) {
            totalIsl += m.isl();
        }
        if (m.osl() >= 0) {
            totalOsl += m.osl();
            anyOsl = true;
        }
        totalOutputTokens += Math.max(0, m.outputTokens());
        if (m.reasoningTokens() >= 0) {
            totalReasoningTokens += m.reasoningTokens();
            anyReasoning = true;
        }
        if (!slos.isEmpty() && meetsAll(m, slos)) {
            good++;
        }
        if (m.serverOutputTokens() >= 0 && m.clientOutputTokens() >= 0) {
            compared++;
            clientTokens += m.clientOutputTokens();
            serverTokens += m.serverOutputTokens();
        }
        final int[] usage = {m.usagePromptTokens(), m.serverOutputTokens(), m.usageTotalTokens()};
        for (int i = 0; i < usage.length; i++) {
            if (usage[i] >= 0) {
                usageTotals[i] += usage[i];
                anyUsage[i] = true;
            }
        }
        if (m.usageCacheReadTokens() >= 0) {
            usageCacheReadTotal += m.usageCacheReadTokens();
            anyUsageCacheRead = true;
        }
        final double promptDiff = MetricRegistry.diffPct(m.usagePromptTokens(), m.clientInputTokens());
        if (!Double.isNaN(promptDiff)) {
            anyPromptDiff = true;
            if (promptDiff > MetricRegistry.USAGE_DIFF_THRESHOLD_PCT) {
                usageDiscrepancies++;
            }
        }
        if (m.requestedOsl() > 0 && m.osl() >= 0) {
            if (MetricRegistry.oslMismatch(m.requestedOsl(), m.osl())) {
                oslMismatches++;
            }
            oslRequests++;
            requestedTokens += m.requestedOsl();
            deliveredTokens += m.osl();
        }
    }

    /** Upstream 0.13 derives these from every record's stamps, failed or not. */
    private void addQueueTimes(final RecordMetrics m) {
        if (!Double.isNaN(m.creditToStartNanos())) {
            creditToStart.add(m.creditToStartNanos() / MetricRegistry.CREDIT_TO_START.nanosToDisplay());
        }
        if (!Double.isNaN(m.effectiveLatencyNanos())) {
            effectiveLatency.add(m.effectiveLatencyNanos() / MetricRegistry.EFFECTIVE_LATENCY.nanosToDisplay());
        }
    }

    public long validCount() {
        return valid;
    }

    public long errorCount() {
        return errors;
    }

    public MetricsSummary summary() {
        return summary(Double.NaN);
    }

    /**
     * @param windowSeconds the rate denominator, for a timeslice (AIPerf: explicit window bounds when present); NaN
     *                      for the records' own span
     */
    public MetricsSummary summary(final double windowSeconds) {
        final Map<String, MetricValue> out = new LinkedHashMap<>();
        for (final Column c : columns) {
            put(out, c.spec(), c.values());
            if (c.spec() == MetricRegistry.ITL) {
                put(out, MetricRegistry.ICL, icl); // the display order of AIPerf's console
            }
        }
        put(out, MetricRegistry.ERROR_ISL, errorIsl);
        put(out, MetricRegistry.CREDIT_TO_START, creditToStart);
        put(out, MetricRegistry.EFFECTIVE_LATENCY, effectiveLatency);
        if (valid > 0 && minStart < maxEnd) {
            final double duration = Double.isNaN(windowSeconds) ? (maxEnd - minStart) / 1e9 : windowSeconds;
            scalar(out, MetricRegistry.REQUEST_THROUGHPUT, valid / duration);
            if (anyOsl) {
                scalar(out, MetricRegistry.OUTPUT_THROUGHPUT, totalOsl / duration);
                scalar(out, MetricRegistry.TOTAL_THROUGHPUT, (totalIsl + totalOsl) / duration);
            }
            scalar(out, MetricRegistry.INPUT_THROUGHPUT, totalIsl / duration);
            scalar(out, MetricRegistry.REQUEST_COUNT, valid);
            if (errors > 0) {
                scalar(out, MetricRegistry.ERROR_COUNT, errors);
            }
            scalar(out, MetricRegistry.ERROR_RATE, 100.0 * errors / (valid + errors));
            scalar(out, MetricRegistry.COMPLETED_COUNT, valid + errors);
            scalar(out, MetricRegistry.DURATION, duration);
            scalar(out, MetricRegistry.TOTAL_ISL, totalIsl);
            if (anyOsl) {
                scalar(out, MetricRegistry.TOTAL_OSL, totalOsl);
                scalar(out, MetricRegistry.TOTAL_OUTPUT_TOKENS, totalOutputTokens);
            }
            if (anyReasoning) {
                scalar(out, MetricRegistry.TOTAL_REASONING_TOKENS, totalReasoningTokens);
            }
            final MetricSpec[] totals = {MetricRegistry.TOTAL_USAGE_PROMPT, MetricRegistry.TOTAL_USAGE_COMPLETION,
                    MetricRegistry.TOTAL_USAGE_TOTAL};
            for (int i = 0; i < totals.length; i++) {
                if (anyUsage[i]) {
                    scalar(out, totals[i], usageTotals[i]);
                }
            }
            if (anyUsageCacheRead) {
                scalar(out, MetricRegistry.TOTAL_USAGE_PROMPT_CACHE_READ, usageCacheReadTotal);
                scalar(out, MetricRegistry.OVERALL_USAGE_PROMPT_CACHE_READ_PCT,
                        cacheReadPct(usageCacheReadTotal, usageTotals[0]));
            }
            if (anyPromptDiff) {
                scalar(out, MetricRegistry.USAGE_DISCREPANCY, usageDiscrepancies);
            }
            if (oslRequests > 0) {
                scalar(out, MetricRegistry.OSL_MISMATCH_COUNT, oslMismatches);
            }
            if (!slos.isEmpty()) {
                scalar(out, MetricRegistry.GOOD_COUNT, good);
                scalar(out, MetricRegistry.GOOD_FRACTION, (double) good / (valid + errors));
                scalar(out, MetricRegistry.GOODPUT, good / duration);
            }
        } else if (errors > 0) {
            scalar(out, MetricRegistry.ERROR_COUNT, errors);
        }
        if (errors > 0 && errorIsl.stats() != null) {
            scalar(out, MetricRegistry.TOTAL_ERROR_ISL, totalErrorIsl);
        }
        if (Double.isNaN(windowSeconds)) {
            putSweepLine(out);
            if (replayLag != null) {
                replayLag.putInto(out); // run-level only: a slice re-anchored at its own least-late request hides drift
            }
        }
        final List<ErrorSummaryEntry> summary = new ArrayList<>();
        errorCounts.forEach((k, v) -> summary.add(new ErrorSummaryEntry(k, v)));
        summary.sort(Comparator.comparingLong(ErrorSummaryEntry::count).reversed());
        return new MetricsSummary(out, valid, errors, summary, valid > 0 ? minStart : null, valid > 0 ? maxEnd : null,
                new MetricsSummary.TokenAccounting(compared, clientTokens, serverTokens, oslRequests, requestedTokens,
                        deliveredTokens));
    }

    /**
     * The sweep-line metrics, over the window of the run-level values (the valid requests' span, so the effective
     * prefill throughput's average is the input token throughput), or the span of every request when none was valid.
     */
    private void putSweepLine(final Map<String, MetricValue> out) {
        final long[] window = valid > 0 && minStart < maxEnd ? new long[] {minStart, maxEnd} : sweepLine.span();
        if (window == null) {
            return;
        }
        sweepLine.putInto(out, window[0], window[1]);
    }

    private void put(final Map<String, MetricValue> out, final MetricSpec spec, final Distribution values) {
        final Stats s = values.stats();
        if (s != null) {
            out.put(spec.tag(), new MetricValue(spec, s, null,
                    errors > 0 && MetricRegistry.ERROR_ADJUSTED.contains(spec) ? adjusted(s, values, errors)
                            : Map.of()));
        }
    }

    /**
     * AIPerf's error-adjusted statistics: each failed request counts as an infinitely slow one, appended to the
     * values; percentiles by nearest rank (index q/100 x (n-1), rounded half to even), and the infinite ones (and the
     * average and maximum, once any request failed) omitted. So a run whose requests fail cannot look fast.
     */
    static Map<String, Double> adjusted(final Stats s, final Distribution values, final long failed) {
        final long n = s.count() + failed;
        final double[] q = Stats.PERCENTILES;
        final long[] ranks = new long[q.length];
        for (int i = 0; i < q.length; i++) {
            ranks[i] = (long) Math.rint(q[i] / 100.0 * (n - 1));
        }
        final long[] finite = java.util.Arrays.stream(ranks).filter(r -> r < s.count()).toArray();
        final double[] at = values.atRanks(finite);
        final Map<String, Double> out = new LinkedHashMap<>();
        if (failed == 0) {
            out.put("adj_avg", s.avg());
        }
        for (int i = 0, j = 0; i < q.length; i++) {
            if (ranks[i] < s.count()) {
                out.put("adj_p" + (int) q[i], at[j++]);
            }
        }
        out.put("adj_min", s.min());
        if (failed == 0) {
            out.put("adj_max", s.max());
        }
        return out;
    }

    /**
     * The share of the prompt tokens read from the server's cache, percent, weighted by tokens (summed cache reads
     * over summed usage prompt tokens, as upstream 0.13); NaN when no prompt tokens were reported.
     */
    static double cacheReadPct(final long cacheReadTokens, final long promptTokens) {
        return promptTokens <= 0 ? Double.NaN : cacheReadTokens * 100.0 / promptTokens;
    }

    private static void scalar(final Map<String, MetricValue> out, final MetricSpec spec, final double value) {
        if (Double.isFinite(value)) {
            out.put(spec.tag(), new MetricValue(spec, null, value));
        }
    }

    @Override
    public void close() {
        columns.forEach(c -> c.values().close());
        icl.close();
        errorIsl.close();
        creditToStart.close();
        effectiveLatency.close();
    }

    /** Every SLO met, inclusive: {@code >=} for larger-is-better metrics, {@code <=} otherwise; a missing value fails. */
    public static boolean meetsAll(final RecordMetrics m, final Map<String, Double> slos) {
        for (final Map.Entry<String, Double> slo : slos.entrySet()) {
            final MetricSpec spec = MetricRegistry.byTag(slo.getKey());
            final double v = spec == null ? Double.NaN : spec.displayValue(m);
            if (Double.isNaN(v)) {
                return false;
            }
            if (spec.largerIsBetter() ? v < slo.getValue() : v > slo.getValue()) {
                return false;
            }
        }
        return true;
    }
}
