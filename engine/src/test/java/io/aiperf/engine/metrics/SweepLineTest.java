package io.aiperf.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sweep-line metrics on hand-made requests, every expected value worked out by hand in the comments (and the
 * same as upstream AIPerf 0.13's own sweep functions give for these intervals). Times in milliseconds.
 */
class SweepLineTest {
    private static final long MS = 1_000_000L;
    private static final long T0 = 1_700_000_000_000_000_000L; // an epoch time, as the records carry

    private static SweepLine requests(final long[]... r) {
        final SweepLine s = new SweepLine();
        for (final long[] q : r) { // start, first token (-1: none), end, ISL, OSL
            s.add(T0 + q[0] * MS, q[1] < 0 ? SweepLine.NONE : T0 + q[1] * MS, T0 + q[2] * MS, (int) q[3], (int) q[4]);
        }
        return s;
    }

    private static Map<MetricSpec, Stats> over(final SweepLine s, final long fromMs, final long toMs) {
        return s.metrics(T0 + fromMs * MS, T0 + toMs * MS);
    }

    /** avg, min, max, p50, p90, p95, p99, std. */
    private static void expect(final Stats s, final double... v) {
        final double[] got = {s.avg(), s.min(), s.max(), s.p50(), s.p90(), s.p95(), s.p99(), s.std()};
        for (int i = 0; i < v.length; i++) {
            assertThat(got[i]).as("statistic %d", i).isCloseTo(v[i], within(1e-9 * Math.max(1, Math.abs(v[i]))));
        }
        assertThat(s.isTimeWeighted()).isTrue();
        assertThat(s.p1()).isNaN(); // upstream writes no p1-p25, p75, sum or count for these
    }

    @Test
    void overlappingRequests() {
        // A: 0..30, first token 10, ISL 20, OSL 5: prefill 20/10 ms = 2000/s on [0,10), decode 4/20 ms = 200/s on [10,30)
        // B: 10..40, first token 20, ISL 10, OSL 3: prefill 1000/s on [10,20), decode 2/20 ms = 100/s on [20,40)
        final Map<MetricSpec, Stats> m = over(requests(new long[] {0, 10, 30, 20, 5}, new long[] {10, 20, 40, 10, 3}),
                0, 40);
        // in flight: 1 on [0,10), 2 on [10,30), 1 on [30,40): avg 60/40; half the time 1, so p50 = 1
        expect(m.get(MetricRegistry.EFFECTIVE_CONCURRENCY), 1.5, 1, 2, 1, 2, 2, 2, 0.5);
        // decode 0, 200, 300, 100 for 10 ms each: avg 6000/40 = 150; sorted 0,100 | 200,300: p50 = 100
        expect(m.get(MetricRegistry.EFFECTIVE_DECODE_THROUGHPUT), 150, 0, 300, 100, 300, 300, 300,
                Math.sqrt((150 * 150 + 50 * 50 + 150 * 150 + 50 * 50) / 4.0));
        // prefill 2000, 1000, then 0 for 20 ms: avg 30000/40 = 750 = the ISL over the window
        expect(m.get(MetricRegistry.EFFECTIVE_PREFILL_THROUGHPUT), 750, 0, 2000, 0, 2000, 2000, 2000,
                Math.sqrt((1250.0 * 1250 + 250 * 250 + 2 * 750 * 750) / 4));
        // decoding: 0, 1, 2, 1; prefilling: 1, 1, 0, 0
        expect(m.get(MetricRegistry.EFFECTIVE_DECODE_CONCURRENCY), 1, 0, 2, 1, 2, 2, 2, Math.sqrt(0.5));
        expect(m.get(MetricRegistry.EFFECTIVE_PREFILL_CONCURRENCY), 0.5, 0, 1, 0, 1, 1, 1, 0.5);
        // total: 2000, 1000 + 200, 300, 100: avg 36000/40 = 900; sorted 100, 300 | 1200, 2000: p50 = 300
        expect(m.get(MetricRegistry.EFFECTIVE_TOTAL_THROUGHPUT), 900, 100, 2000, 300, 2000, 2000, 2000,
                Math.sqrt((1100.0 * 1100 + 300 * 300 + 600 * 600 + 800 * 800) / 4));
        // per user in decode: 0, 200/1, 300/2, 100/1: avg 4500/40 = 112.5
        expect(m.get(MetricRegistry.EFFECTIVE_DECODE_PER_USER), 112.5, 0, 200, 100, 200, 200, 200,
                Math.sqrt((112.5 * 112.5 + 87.5 * 87.5 + 37.5 * 37.5 + 12.5 * 12.5) / 4));
        // tokens: 20, 20+5+10, 35+3, 38-25: avg 1060/40 = 26.5
        expect(m.get(MetricRegistry.TOKENS_IN_FLIGHT), 26.5, 13, 38, 20, 38, 38, 38,
                Math.sqrt((6.5 * 6.5 + 8.5 * 8.5 + 11.5 * 11.5 + 13.5 * 13.5) / 4));
        // active decode: only [10,40), where something decodes: 200, 300, 100: avg 200
        expect(m.get(MetricRegistry.ACTIVE_DECODE_THROUGHPUT), 200, 100, 300, 200, 300, 300, 300,
                Math.sqrt(20000.0 / 3));
        expect(m.get(MetricRegistry.ACTIVE_PREFILL_THROUGHPUT), 1500, 1000, 2000, 1000, 2000, 2000, 2000, 500);
        expect(m.get(MetricRegistry.ACTIVE_DECODE_PER_USER), 150, 100, 200, 150, 200, 200, 200,
                Math.sqrt(5000.0 / 3));
        // something is in flight the whole window: the same as the effective total
        expect(m.get(MetricRegistry.ACTIVE_TOTAL_THROUGHPUT), 900, 100, 2000, 300, 2000, 2000, 2000,
                Math.sqrt((1100.0 * 1100 + 300 * 300 + 600 * 600 + 800 * 800) / 4));
    }

    @Test
    void aGapCountsAsIdleExceptInTheActiveVariants() {
        // A: 0..20, first token 10, ISL 20, OSL 5 (decode 400/s); nothing on [20,30); B: 30..50, first 35, ISL 10,
        // OSL 4 (prefill 2000/s on [30,35), decode 3/15 ms = 200/s on [35,50))
        final Map<MetricSpec, Stats> m = over(requests(new long[] {0, 10, 20, 20, 5}, new long[] {30, 35, 50, 10, 4}),
                0, 50);
        // 1 for 40 ms, 0 for 10: avg 0.8, p50 1 (0 holds only a fifth of the time)
        expect(m.get(MetricRegistry.EFFECTIVE_CONCURRENCY), 0.8, 0, 1, 1, 1, 1, 1, 0.4);
        // decode 400 for 10 ms, 200 for 15, 0 for 25: avg 7000/50 = 140; p50 0
        expect(m.get(MetricRegistry.EFFECTIVE_DECODE_THROUGHPUT), 140, 0, 400, 0, 400, 400, 400,
                Math.sqrt((10 * 260.0 * 260 + 15 * 60.0 * 60 + 25 * 140.0 * 140) / 50));
        // active decode: [10,20) and [35,50) only: 7000/25 = 280, p50 200 (15 of 25 ms)
        expect(m.get(MetricRegistry.ACTIVE_DECODE_THROUGHPUT), 280, 200, 400, 200, 400, 400, 400,
                Math.sqrt((10 * 120.0 * 120 + 15 * 80.0 * 80) / 25));
        // active total: in flight on [0,20) and [30,50): (2000*10 + 400*10 + 2000*5 + 200*15) / 40 = 925
        expect(m.get(MetricRegistry.ACTIVE_TOTAL_THROUGHPUT), 925, 200, 2000, 400, 2000, 2000, 2000,
                Math.sqrt((10 * 1075.0 * 1075 + 10 * 525.0 * 525 + 5 * 1075.0 * 1075 + 15 * 725.0 * 725) / 40));
    }

    @Test
    void identicalStartsAndAnEndMeetingAStart() {
        // A: 0..20 and B: 0..30, both first token at 10, ISL 20, OSL 5; C starts at 20 when A ends: 20..30, first 25,
        // ISL 10, OSL 2. Ends count before starts at the same time, so the concurrency never reads 3.
        final Map<MetricSpec, Stats> m = over(requests(new long[] {0, 10, 20, 20, 5}, new long[] {0, 10, 30, 20, 5},
                new long[] {20, 25, 30, 10, 2}), 0, 30);
        expect(m.get(MetricRegistry.EFFECTIVE_CONCURRENCY), 2, 2, 2, 2, 2, 2, 2, 0);
        // prefill: two at 2000/s on [0,10) = 4000, C at 2000/s on [20,25): avg (40000 + 10000)/30
        expect(m.get(MetricRegistry.EFFECTIVE_PREFILL_THROUGHPUT), 50000.0 / 30, 0, 4000, 0, 4000, 4000, 4000,
                Math.sqrt((10 * Math.pow(4000 - 5000.0 / 3, 2) + 5 * Math.pow(2000 - 5000.0 / 3, 2)
                        + 15 * Math.pow(5000.0 / 3, 2)) / 30));
        // decode: A 4/10 ms = 400 on [10,20), B 4/20 ms = 200 on [10,30), C 1/5 ms = 200 on [25,30):
        // 600 for 10 ms, 200 for 5, 400 for 5 (active [10,30)): avg 9000/20 = 450, p50 400
        expect(m.get(MetricRegistry.ACTIVE_DECODE_THROUGHPUT), 450, 200, 600, 400, 600, 600, 600,
                Math.sqrt((10 * 150.0 * 150 + 5 * 250.0 * 250 + 5 * 50.0 * 50) / 20));
        // per user: 600/2, 200/1, 400/2: 300, 200, 200 while decoding: avg 250
        expect(m.get(MetricRegistry.ACTIVE_DECODE_PER_USER), 250, 200, 300, 200, 300, 300, 300, 50);
    }

    @Test
    void aWindowWiderThanTheRequestsReadsZeroOutsideThem() {
        final Map<MetricSpec, Stats> m = over(requests(new long[] {10, 20, 30, 20, 5}), 0, 40);
        // 1 on [10,30) of [0,40)
        expect(m.get(MetricRegistry.EFFECTIVE_CONCURRENCY), 0.5, 0, 1, 0, 1, 1, 1, 0.5);
        // the active variant leaves the idle parts out: decode 4/10 ms = 400 while decoding
        expect(m.get(MetricRegistry.ACTIVE_DECODE_THROUGHPUT), 400, 400, 400, 400, 400, 400, 400, 0);
    }

    @Test
    void withoutAFirstTokenOnlyTheConcurrencyIsCountedTheRestIsZero() {
        // not streamed (no first token), 0..20; a failed request 10..30
        final SweepLine s = requests(new long[] {0, -1, 20, 30, 8});
        s.add(failed(T0 + 10 * MS, 20 * MS));
        final Map<MetricSpec, Stats> m = over(s, 0, 30);
        expect(m.get(MetricRegistry.EFFECTIVE_CONCURRENCY), 40.0 / 30, 1, 2, 1, 2, 2, 2,
                Math.sqrt((20 * Math.pow(1 - 4.0 / 3, 2) + 10 * Math.pow(2 - 4.0 / 3, 2)) / 30));
        for (final MetricSpec spec : new MetricSpec[] {MetricRegistry.EFFECTIVE_DECODE_THROUGHPUT,
            MetricRegistry.EFFECTIVE_PREFILL_THROUGHPUT, MetricRegistry.TOKENS_IN_FLIGHT,
            MetricRegistry.EFFECTIVE_DECODE_PER_USER, MetricRegistry.ACTIVE_TOTAL_THROUGHPUT}) {
            expect(m.get(spec), 0, 0, 0, 0, 0, 0, 0, 0);
        }
        assertThat(m).hasSize(14);
    }

    @Test
    void nothingAddedGivesNoMetrics() {
        assertThat(new SweepLine().metrics(T0, T0 + MS)).isEmpty();
    }

    /** A failed request as the record processor makes it: its span only in its queue times (credit 1 ms before). */
    private static RecordMetrics failed(final long start, final long durationNanos) {
        return new RecordMetrics(false, 0, start, null, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                null, Double.NaN, 30, -1, -1, -1, Double.NaN, -1, -1, -1, -1, -1, -1, -1, 0, MS, MS + durationNanos);
    }
}
