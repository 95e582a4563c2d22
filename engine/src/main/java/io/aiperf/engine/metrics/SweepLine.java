package io.aiperf.engine.metrics;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Upstream AIPerf 0.13's run-level sweep-line metrics: how many requests were in flight, in prefill (start to first
 * token) and in decode (first token to end), and the token rates they carried, as step functions over the run's
 * timeline, summarised time-weighted over the run's window. Each request's prefill carries
 * {@code ISL / prefill time}, its decode {@code (OSL - 1) / decode time} (the first token arrives with the first
 * chunk; upstream's request-level rate), and its tokens in flight are its ISL from its start and its ISL + OSL from
 * its first token to its end. Failed requests count in the concurrency only.
 * <p>
 * It keeps each request's stamps and counts (32 bytes a request) until the summary, which sorts them once.
 * Not thread-safe: one record processor feeds it.
 */
final class SweepLine {
    private static final double PER_SECOND = 1e9;
    static final long NONE = Long.MIN_VALUE;

    private long[] starts = new long[64];
    private long[] firstTokens = new long[64];
    private long[] ends = new long[64];
    private int[] isl = new int[64];
    private int[] osl = new int[64];
    private int size;

    /** Adds a request's intervals, when its start and end are known. */
    void add(final RecordMetrics m) {
        final double duration = m.valid() ? m.latencyNanos()
                // a failed request keeps no latency; its queue times span credit to start and credit to end
                : m.effectiveLatencyNanos() - m.creditToStartNanos();
        if (!(duration >= 0)) {
            return;
        }
        final long start = m.startEpochNanos();
        if (!m.valid()) {
            add(start, NONE, start + (long) duration, -1, -1);
            return;
        }
        add(start, m.ttftNanos() >= 0 ? start + (long) m.ttftNanos() : NONE, start + (long) duration, m.isl(),
                m.osl());
    }

    /**
     * @param firstToken when the first token came, {@link #NONE} for a request without one (not streamed, failed)
     * @param isl its input tokens, negative when unknown
     * @param osl its output tokens, negative when unknown
     */
    void add(final long start, final long firstToken, final long end, final int isl, final int osl) {
        if (size == starts.length) {
            final int grown = size * 2;
            starts = Arrays.copyOf(starts, grown);
            firstTokens = Arrays.copyOf(firstTokens, grown);
            ends = Arrays.copyOf(ends, grown);
            this.isl = Arrays.copyOf(this.isl, grown);
            this.osl = Arrays.copyOf(this.osl, grown);
        }
        starts[size] = start;
        firstTokens[size] = firstToken;
        ends[size] = end;
        this.isl[size] = isl;
        this.osl[size] = osl;
        size++;
    }

    /**
     * The metrics over the window {@code [from, to]} (epoch ns), in upstream's order: its {@code effective_*} and
     * {@code tokens_in_flight} over the whole window, then its {@code active_*} over the parts where their phase has
     * a request in flight; none when no request was added.
     */
    Map<MetricSpec, Stats> metrics(final long from, final long to) {
        final Map<MetricSpec, Stats> out = new LinkedHashMap<>();
        if (size == 0) {
            return out;
        }
        final Curves c = curves();
        out.put(MetricRegistry.EFFECTIVE_CONCURRENCY, TimeWeightedStats.over(c.concurrency, from, to, 1));
        out.put(MetricRegistry.EFFECTIVE_DECODE_THROUGHPUT, TimeWeightedStats.over(c.decode, from, to, PER_SECOND));
        out.put(MetricRegistry.EFFECTIVE_PREFILL_THROUGHPUT, TimeWeightedStats.over(c.prefill, from, to, PER_SECOND));
        out.put(MetricRegistry.EFFECTIVE_DECODE_CONCURRENCY, TimeWeightedStats.over(c.decoding, from, to, 1));
        out.put(MetricRegistry.EFFECTIVE_PREFILL_CONCURRENCY, TimeWeightedStats.over(c.prefilling, from, to, 1));
        out.put(MetricRegistry.EFFECTIVE_TOTAL_THROUGHPUT, TimeWeightedStats.over(c.total, from, to, PER_SECOND));
        out.put(MetricRegistry.EFFECTIVE_DECODE_PER_USER, TimeWeightedStats.over(c.decodePerUser, from, to,
                PER_SECOND));
        out.put(MetricRegistry.EFFECTIVE_PREFILL_PER_USER, TimeWeightedStats.over(c.prefillPerUser, from, to,
                PER_SECOND));
        out.put(MetricRegistry.TOKENS_IN_FLIGHT, TimeWeightedStats.over(c.tokensInFlight, from, to, 1));
        out.put(MetricRegistry.ACTIVE_DECODE_THROUGHPUT, TimeWeightedStats.whileActive(c.decode, c.decoding, from, to,
                PER_SECOND));
        out.put(MetricRegistry.ACTIVE_PREFILL_THROUGHPUT, TimeWeightedStats.whileActive(c.prefill, c.prefilling, from,
                to, PER_SECOND));
        out.put(MetricRegistry.ACTIVE_DECODE_PER_USER, TimeWeightedStats.whileActive(c.decodePerUser, c.decoding, from,
                to, PER_SECOND));
        out.put(MetricRegistry.ACTIVE_PREFILL_PER_USER, TimeWeightedStats.whileActive(c.prefillPerUser, c.prefilling,
                from, to, PER_SECOND));
        out.put(MetricRegistry.ACTIVE_TOTAL_THROUGHPUT, TimeWeightedStats.whileActive(c.total, c.concurrency, from, to,
                PER_SECOND));
        return out;
    }

    /** The earliest start and the latest end of the requests added, or null when none was. */
    long[] span() {
        if (size == 0) {
            return null;
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < size; i++) {
            first = Math.min(first, starts[i]);
            last = Math.max(last, ends[i]);
        }
        return new long[] {first, last};
    }

    /** The step functions: rates in tokens per nanosecond, concurrencies in requests, tokens in flight in tokens. */
    private record Curves(StepFunction concurrency, StepFunction decoding, StepFunction prefilling,
                          StepFunction decode, StepFunction prefill, StepFunction total, StepFunction decodePerUser,
                          StepFunction prefillPerUser, StepFunction tokensInFlight) {
    }

    private Curves curves() {
        final StepFunction.Events concurrency = new StepFunction.Events();
        final StepFunction.Events decoding = new StepFunction.Events();
        final StepFunction.Events prefilling = new StepFunction.Events();
        final StepFunction.Events decode = new StepFunction.Events();
        final StepFunction.Events prefill = new StepFunction.Events();
        final StepFunction.Events total = new StepFunction.Events();
        final StepFunction.Events inFlight = new StepFunction.Events();
        for (int i = 0; i < size; i++) {
            concurrency.interval(starts[i], ends[i], 1);
            final long first = firstTokens[i];
            if (first == NONE) {
                continue;
            }
            decoding.interval(first, ends[i], 1);
            prefilling.interval(starts[i], first, 1);
            final boolean prefillRate = isl[i] >= 0 && first > starts[i];
            if (prefillRate) {
                final double rate = isl[i] / (double) (first - starts[i]);
                prefill.interval(starts[i], first, rate);
                total.interval(starts[i], first, rate);
                inFlight.add(starts[i], isl[i]);
            }
            final boolean decodes = osl[i] >= 0 && ends[i] > first;
            if (decodes && osl[i] >= 1) {
                final double rate = (osl[i] - 1) / (double) (ends[i] - first);
                decode.interval(first, ends[i], rate);
                total.interval(first, ends[i], rate);
            }
            if (decodes) {
                inFlight.add(first, osl[i]);
            }
            final double held = (prefillRate ? isl[i] : 0) + (decodes ? osl[i] : 0);
            if (prefillRate || decodes) {
                inFlight.add(ends[i], -held);
            }
        }
        final StepFunction decodingCurve = decoding.sweep();
        final StepFunction prefillingCurve = prefilling.sweep();
        final StepFunction decodeCurve = decode.sweep();
        final StepFunction prefillCurve = prefill.sweep();
        return new Curves(concurrency.sweep(), decodingCurve, prefillingCurve, decodeCurve, prefillCurve,
                total.sweep(), decodeCurve.dividedBy(decodingCurve), prefillCurve.dividedBy(prefillingCurve),
                inFlight.sweep());
    }
}
