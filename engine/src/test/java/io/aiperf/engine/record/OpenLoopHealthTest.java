package io.aiperf.engine.record;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The open loop is blamed for a lower load only when the load was lower than its drawn schedule. */
class OpenLoopHealthTest {
    @Test
    void lateSendsOnABusyHostThatStillDeliverTheRateAreNotALimitedRun() {
        // The report behind this test: 20.0 of 20.0 req/s, lag p99 3.2 ms, nothing missed or over 10 ms late.
        final OpenLoopHealth h = new OpenLoopHealth(20, 20, 19.9, 10, 10, 0, 0, 0, 0.4, 3.2, 3.4);
        assertThat(h.rateShort()).isFalse();
        assertThat(h.clientLimited()).isFalse();
        assertThat(h.warning()).isNull();
    }

    @Test
    void aRunWhoseEverySendWasOnTimeIsNeverALimitedRun() {
        // The report behind this test: 10.01 of 10 req/s delivered, no send late, yet "the client limited the run".
        final OpenLoopHealth h = new OpenLoopHealth(10, 10.4, 10.01, 100, 100, 0, 0, 0, 0.2, 1.5, 2.0);
        assertThat(h.rateShort()).isFalse();
        assertThat(h.clientLimited()).isFalse();
        assertThat(h.warning()).isNull();
    }

    @Test
    void aPoissonRunIsJudgedAgainstTheScheduleItDrewNotItsMean() {
        // 50 req/s asked, the draw came out at 42.4, and the loop sent exactly that.
        final OpenLoopHealth h = new OpenLoopHealth(50, 42.4, 42.4, 30, 30, 0, 0, 0, 0.1, 0.5, 0.6);
        assertThat(h.clientLimited()).isFalse();
        assertThat(h.warning()).isNull();
    }

    @Test
    void sendingThatTakesLongerThanTheDrawnScheduleIsAShortRateWithItsFigures() {
        // 1,000 arrivals drawn over 1 s took 1.25 s to send: a lower load than asked.
        final OpenLoopHealth h = new OpenLoopHealth(1000, 1000, 800, 1000, 1000, 300, 0, 0, 5, 180, 250);
        assertThat(h.rateShort()).isTrue();
        assertThat(h.clientLimited()).isTrue();
        assertThat(h.warning()).isEqualTo("the client limited the run: the open loop asked for 1000.0 req/s and "
                + "achieved 800.0 req/s; 300 of 1000 sends were over 10 ms late (p99 180.0 ms): the load was lower "
                + "than asked, so these numbers understate what the rate would do");
        assertThat(h.brief()).isEqualTo("the client limited the run: 800.0 of 1000.0 req/s");
    }

    @Test
    void missedArrivalsBeyondHalfAPercentAreAShortRateEvenWhenTheSendsKeptPace() {
        final OpenLoopHealth h = new OpenLoopHealth(100, 100, 100, 1000, 990, 0, 10, 0, 0.1, 0.5, 0.9);
        assertThat(h.clientLimited()).isTrue();
        assertThat(h.warning()).startsWith("the client limited the run: ").contains("about 10 arrival(s) were skipped");
        final OpenLoopHealth few = new OpenLoopHealth(100, 100, 100, 1000, 998, 0, 2, 0, 0.1, 0.5, 0.9);
        assertThat(few.clientLimited()).isFalse();
        assertThat(few.warning()).doesNotContain("limited").doesNotContain("lower than asked").endsWith("the rate held");
        assertThat(few.brief()).isEqualTo("the rate held; about 2 arrival(s) were skipped after stalls");
    }

    @Test
    void aConcurrencyCeilingIsNamedAsTheLimitNotTheClient() {
        final OpenLoopHealth h = new OpenLoopHealth(200, 200, 19, 400, 20, 0, 380, 19, 1, 40, 50);
        assertThat(h.rateShort()).isTrue();
        assertThat(h.clientLimited()).isFalse();
        assertThat(h.warning()).startsWith("the open loop asked for 200.0 req/s and achieved 19.0 req/s")
                .contains("19 arrival(s) waited for the --concurrency ceiling").contains("lower than asked");
        assertThat(h.brief()).isEqualTo("the --concurrency ceiling held the load to 19.0 of 200.0 req/s");
    }

    @Test
    void aStretchWithinTheCatchUpBoundIsLatenessNotALowerRate() {
        // Ten sends over 0.45 s drawn; the last one 8 ms late: 0.458 s.
        final OpenLoopHealth h = new OpenLoopHealth(20, 20, 9 / 0.458, 10, 10, 0, 0, 0, 0.5, 8, 8);
        assertThat(h.rateShort()).isFalse();
    }
}
