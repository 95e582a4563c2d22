package io.aiperf.engine.metrics;

import java.util.Arrays;
import java.util.HashMap;
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
 * It keeps each request's stamps and counts (32 bytes a request) until the summary, which sweeps them one curve
 * at a time (each a sort of two events a request).
 * Not thread-safe: one record processor feeds it.
 */
public final class SweepLine {
    private static final double PER_SECOND = 1e9;
    static final long NONE = Long.MIN_VALUE;

    private long[] starts = new long[64];
    private long[] firstTokens = new long[64];
    private long[] ends = new long[64];
    private int[] isl = new int[64];
    private int[] osl = new int[64];
    private int size;

    /** Adds a request's intervals, when its start and end are known. */
    public void add(final RecordMetrics m) {
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
     * a request in flight; none when no request was added. One curve family at a time, so that only a few curves
     * are held at once.
     */
    Map<MetricSpec, Stats> metrics(final long from, final long to) {
        final Map<MetricSpec, Stats> got = new HashMap<>();
        if (size == 0) {
            return new LinkedHashMap<>();
        }
        final StepFunction concurrency = sweep(Curve.IN_FLIGHT);
        got.put(MetricRegistry.EFFECTIVE_CONCURRENCY, TimeWeightedStats.over(concurrency, from, to, 1));
        final StepFunction total = sweep(Curve.TOTAL_RATE);
        got.put(MetricRegistry.EFFECTIVE_TOTAL_THROUGHPUT, TimeWeightedStats.over(total, from, to, PER_SECOND));
        got.put(MetricRegistry.ACTIVE_TOTAL_THROUGHPUT, TimeWeightedStats.whileActive(total, concurrency, from, to,
                PER_SECOND));
        phase(got, Curve.DECODING, Curve.DECODE_RATE, MetricRegistry.EFFECTIVE_DECODE_CONCURRENCY,
                MetricRegistry.EFFECTIVE_DECODE_THROUGHPUT, MetricRegistry.EFFECTIVE_DECODE_PER_USER,
                MetricRegistry.ACTIVE_DECODE_THROUGHPUT, MetricRegistry.ACTIVE_DECODE_PER_USER, from, to);
        phase(got, Curve.PREFILLING, Curve.PREFILL_RATE, MetricRegistry.EFFECTIVE_PREFILL_CONCURRENCY,
                MetricRegistry.EFFECTIVE_PREFILL_THROUGHPUT, MetricRegistry.EFFECTIVE_PREFILL_PER_USER,
                MetricRegistry.ACTIVE_PREFILL_THROUGHPUT, MetricRegistry.ACTIVE_PREFILL_PER_USER, from, to);
        got.put(MetricRegistry.TOKENS_IN_FLIGHT, TimeWeightedStats.over(sweep(Curve.TOKENS), from, to, 1));
        final Map<MetricSpec, Stats> out = new LinkedHashMap<>();
        MetricRegistry.SWEEP_LINE.forEach(spec -> out.put(spec, got.get(spec)));
        return out;
    }

    /** One phase's (prefill's or decode's) concurrency, rate, per-user rate and their active variants. */
    private void phase(final Map<MetricSpec, Stats> got, final Curve requests, final Curve tokens,
                       final MetricSpec concurrency, final MetricSpec rate, final MetricSpec perUser,
                       final MetricSpec activeRate, final MetricSpec activePerUser, final long from, final long to) {
        final StepFunction inPhase = sweep(requests);
        final StepFunction r = sweep(tokens);
        final StepFunction u = r.dividedBy(inPhase);
        got.put(concurrency, TimeWeightedStats.over(inPhase, from, to, 1));
        got.put(rate, TimeWeightedStats.over(r, from, to, PER_SECOND));
        got.put(perUser, TimeWeightedStats.over(u, from, to, PER_SECOND));
        got.put(activeRate, TimeWeightedStats.whileActive(r, inPhase, from, to, PER_SECOND));
        got.put(activePerUser, TimeWeightedStats.whileActive(u, inPhase, from, to, PER_SECOND));
    }

    /** Puts the metrics over the window {@code [from, to]} (epoch ns) into {@code out}, by tag, in upstream's order. */
    public void putInto(final Map<String, MetricValue> out, final long from, final long to) {
        metrics(from, to).forEach((spec, s) -> out.put(spec.tag(), new MetricValue(spec, s, null)));
    }

    /** The earliest start and the latest end of the requests added, or null when none was. */
    public long[] span() {
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

    /** The curves: rates in tokens per nanosecond, concurrencies in requests, tokens in flight in tokens. */
    private enum Curve { IN_FLIGHT, DECODING, PREFILLING, DECODE_RATE, PREFILL_RATE, TOTAL_RATE, TOKENS }

    private StepFunction sweep(final Curve curve) {
        final int perRequest = curve == Curve.TOTAL_RATE ? 4 : curve == Curve.TOKENS ? 3 : 2;
        final StepFunction.Events e = new StepFunction.Events((int) Math.min(Integer.MAX_VALUE - 8,
                (long) size * perRequest));
        for (int i = 0; i < size; i++) {
            final long start = starts[i];
            final long end = ends[i];
            final long first = firstTokens[i];
            if (curve == Curve.IN_FLIGHT) {
                e.interval(start, end, 1);
                continue;
            }
            if (first == NONE) {
                continue;
            }
            final boolean prefills = isl[i] >= 0 && first > start; // a prefill rate needs a prefill time
            final boolean decodes = osl[i] >= 0 && end > first;
            switch (curve) {
                case DECODING -> e.interval(first, end, 1);
                case PREFILLING -> e.interval(start, first, 1);
                case DECODE_RATE -> decodeRate(e, i);
                case PREFILL_RATE -> prefillRate(e, i, prefills);
                case TOTAL_RATE -> {
                    prefillRate(e, i, prefills);
                    decodeRate(e, i);
                }
                case TOKENS -> {
                    // ISL held from the start, ISL + OSL from the first token, all freed at the end
                    if (prefills) {
                        e.add(start, isl[i]);
                    }
                    if (decodes) {
                        e.add(first, osl[i]);
                    }
                    if (prefills || decodes) {
                        e.add(end, -((prefills ? isl[i] : 0) + (decodes ? osl[i] : 0)));
                    }
                }
                default -> throw new IllegalStateException(curve.name());
            }
        }
        return e.sweep();
    }

    private void prefillRate(final StepFunction.Events e, final int i, final boolean prefills) {
        if (prefills) {
            e.interval(starts[i], firstTokens[i], isl[i] / (double) (firstTokens[i] - starts[i]));
        }
    }

    /** {@code (OSL - 1) / decode time}: the first token came with the first chunk, at the decode's start. */
    private void decodeRate(final StepFunction.Events e, final int i) {
        if (osl[i] >= 1 && ends[i] > firstTokens[i]) {
            e.interval(firstTokens[i], ends[i], (osl[i] - 1) / (double) (ends[i] - firstTokens[i]));
        }
    }
}
