package io.aiperf.engine.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Timelines on real time: fixed-width bins, sends divided by the width, time from zero. */
class TimelineTest {
    private static final long T0 = 1_700_000_000_000_000_000L;
    private static final long MS = 1_000_000L;

    /** {@code n} requests at {@code perSecond}, each open for {@code holdMs}. */
    private static Timeline steady(final int n, final double perSecond, final long holdMs) {
        final long[] starts = new long[n];
        final long[] ends = new long[n];
        for (int i = 0; i < n; i++) {
            starts[i] = T0 + Math.round(i * 1e9 / perSecond);
            ends[i] = starts[i] + holdMs * MS;
        }
        return Timeline.of(starts, ends);
    }

    @Test
    void aLongCellHasOneSecondBinsAndItsRateInRequestsPerSecond() {
        final Timeline t = steady(229 * 30, 229, 40); // 30 s at 229 req/s (60 fixed bins once read 4,441/s)
        assertThat(t.width()).isEqualTo(1.0);
        assertThat(t.centers()[0]).isEqualTo(0.5);
        assertThat(t.peakSentPerSecond()).isBetween(228.0, 230.0);
        // 229 req/s held 40 ms each: about 9.2 in flight (Little's law)
        assertThat(t.inFlight()[10]).isCloseTo(229 * 0.040, within(0.3));
    }

    @Test
    void aShortCellHasRoundBinsOfAboutATenthOfItsWindow() {
        final Timeline t = steady(400, 200, 5); // 2 s at 200 req/s
        assertThat(t.width()).isEqualTo(0.2);
        assertThat(Arrays.stream(t.sentPerSecond()).limit(9).allMatch(v -> Math.abs(v - 200) <= 5)).isTrue();
        assertThat(t.peakSentPerSecond()).isLessThanOrEqualTo(400);
        assertThat(t.centers()[0]).isCloseTo(0.1, within(1e-9));
    }

    @Test
    void roundWidthsAreOneTwoOrFiveTimesAPowerOfTen() {
        assertThat(Timeline.roundWidth(1)).isEqualTo(MS);
        assertThat(Timeline.roundWidth(130 * MS)).isEqualTo(200 * MS);
        assertThat(Timeline.roundWidth(300 * MS)).isEqualTo(500 * MS);
        assertThat(Timeline.roundWidth(700 * MS)).isEqualTo(1000 * MS);
        assertThat(Timeline.of(new long[0], new long[0]).centers()).isEmpty();
    }
}
