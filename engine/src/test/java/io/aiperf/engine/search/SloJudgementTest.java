package io.aiperf.engine.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The statistical decision on one SLO from a point's requests. */
class SloJudgementTest {
    private static final Sla P95_UNDER_45 = Sla.parse("f", "time_to_first_token:p95:lt:45");

    /** 1, 2, ..., n ms. */
    private static double[] ramp(final int n) {
        return IntStream.rangeClosed(1, n).asDoubleStream().toArray();
    }

    @Test
    void aPercentileFarBelowTheThresholdMeetsAndFarAboveMisses() {
        final double[] fast = IntStream.range(0, 200).mapToDouble(i -> 20 + i % 5).toArray();
        assertThat(SloJudgement.of(P95_UNDER_45, 24, fast, 0.95).verdict()).isEqualTo(SloJudgement.Verdict.MEETS);
        final double[] slow = IntStream.range(0, 200).mapToDouble(i -> 70 + i % 5).toArray();
        assertThat(SloJudgement.of(P95_UNDER_45, 74, slow, 0.95).verdict()).isEqualTo(SloJudgement.Verdict.MISSES);
    }

    @Test
    void aPercentileNearTheThresholdOrFromTooFewRequestsIsUnsure() {
        // 1..100: the p95 is about 95; bounds from the order statistics hold 95 but not 45 or 200
        final SloJudgement near = SloJudgement.of(Sla.parse("f", "time_to_first_token:p95:lt:96"), 95, ramp(100), 0.95);
        assertThat(near.verdict()).isEqualTo(SloJudgement.Verdict.UNSURE);
        assertThat(near.low()).isLessThan(95).isGreaterThan(85);
        assertThat(near.high()).isGreaterThan(96).isLessThanOrEqualTo(100);
        // 40 requests cannot bound a p95 from above at 95%: 0.95^40 = 13% chance all are below it
        final double[] forty = IntStream.range(0, 40).mapToDouble(i -> 20).toArray();
        final SloJudgement few = SloJudgement.of(P95_UNDER_45, 20, forty, 0.95);
        assertThat(few.verdict()).isEqualTo(SloJudgement.Verdict.UNSURE);
        assertThat(few.high()).isInfinite();
        // 80 do (1 - 0.95^80 = 98%): the bound is the slowest request
        assertThat(SloJudgement.of(P95_UNDER_45, 20, IntStream.range(0, 80).mapToDouble(i -> 20).toArray(), 0.95)
                .verdict()).isEqualTo(SloJudgement.Verdict.MEETS);
    }

    @Test
    void theOrderStatisticBoundsHoldTheirConfidence() {
        // Exact: P(X_(u) >= p95) = P(Binomial(n, 0.95) <= u - 1) >= 0.95 for the chosen u, and u - 1 would not do.
        final double[] b = SloJudgement.bounds("p95", ramp(200), 0.95);
        final int u = (int) b[1];
        assertThat(SloJudgement.binomialCdf(u - 1, 200, 0.95)).isGreaterThanOrEqualTo(0.95);
        assertThat(SloJudgement.binomialCdf(u - 2, 200, 0.95)).isLessThan(0.95);
        final int l = (int) b[0];
        assertThat(1 - SloJudgement.binomialCdf(l - 1, 200, 0.95)).isGreaterThanOrEqualTo(0.95);
        assertThat(1 - SloJudgement.binomialCdf(l, 200, 0.95)).isLessThan(0.95);
    }

    @Test
    void aMeanIsBoundedByStudentsTAndALowerLimitIsMirrored() {
        final double[] around50 = IntStream.range(0, 100).mapToDouble(i -> 40 + i % 21).toArray(); // mean 50
        final Sla atLeast = Sla.parse("f", "output_token_throughput_per_user:avg:ge:45");
        assertThat(SloJudgement.of(atLeast, 50, around50, 0.95).verdict()).isEqualTo(SloJudgement.Verdict.MEETS);
        assertThat(SloJudgement.of(Sla.parse("f", "output_token_throughput_per_user:avg:ge:55"), 50, around50, 0.95)
                .verdict()).isEqualTo(SloJudgement.Verdict.MISSES);
        assertThat(SloJudgement.of(Sla.parse("f", "output_token_throughput_per_user:avg:ge:50.5"), 50, around50, 0.95)
                .verdict()).isEqualTo(SloJudgement.Verdict.UNSURE);
    }

    @Test
    void aValueFarFromTheThresholdIsDecidedOnItsValueInsideTheBandOnItsRequests() {
        final double[] forty = IntStream.range(0, 40).mapToDouble(i -> 20).toArray();
        final SloJudgement far = SloJudgement.of(P95_UNDER_45, 20, forty, 0.95, 0.10);
        assertThat(far.byValue()).isTrue();
        assertThat(far.verdict()).isEqualTo(SloJudgement.Verdict.MEETS);
        final double[] near = IntStream.range(0, 40).mapToDouble(i -> 42).toArray();
        assertThat(SloJudgement.of(P95_UNDER_45, 42, near, 0.95, 0.10).verdict()).as("7% below: near, and 40 "
                + "requests cannot bound a p95").isEqualTo(SloJudgement.Verdict.UNSURE);
    }

    @Test
    void aRunLevelMetricIsDecidedOnItsValue() {
        final Sla throughput = Sla.parse("f", "request_throughput:avg:ge:50");
        final SloJudgement j = SloJudgement.of(throughput, 51, new double[0], 0.95);
        assertThat(j.byValue()).isTrue();
        assertThat(j.verdict()).isEqualTo(SloJudgement.Verdict.MEETS);
        assertThat(SloJudgement.of(throughput, 49, new double[0], 0.95).verdict()).isEqualTo(SloJudgement.Verdict.MISSES);
    }
}
