package io.aiperf.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.dataset.Conversation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A trace's timestamps as the gaps between sends, for one process and for a shard's every N-th row. */
class ScheduledArrivalsTest {
    private static final long MS = 1_000_000L;
    private static final PhaseConfig.Schedule AUTO_OFFSET = new PhaseConfig.Schedule(true, null, null);

    private static List<Conversation> rows(final long... timestampsMs) {
        final List<Conversation> out = new ArrayList<>();
        for (final long t : timestampsMs) {
            out.add(Conversation.single("row" + t, "p", 4, 2, t));
        }
        return out;
    }

    private static List<Double> gaps(final ScheduledArrivals arrivals, final int n) {
        final List<Double> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(arrivals.nextNanos() / MS);
        }
        return out;
    }

    @Test
    void oneProcessCountsFromItsFirstRow() {
        final List<Conversation> trace = rows(1000, 1050, 1100, 1150);
        assertThat(gaps(new ScheduledArrivals(trace, AUTO_OFFSET, RequestSource.firstTimestampMs(trace)), 4))
                .containsExactly(0.0, 50.0, 50.0, 50.0);
    }

    @Test
    void aShardKeepsItsRowsPlacesInTheWholeTrace() {
        // shard 2 of 2 of the trace above replays rows 1050 and 1150: 50 ms after the start, then 100 ms later,
        // as one process sends them, not at once (its own first row's time is not the trace's zero)
        final List<Conversation> trace = rows(1000, 1050, 1100, 1150);
        final List<Conversation> second = List.of(trace.get(1), trace.get(3));
        assertThat(gaps(new ScheduledArrivals(second, AUTO_OFFSET, RequestSource.firstTimestampMs(trace)), 2))
                .containsExactly(50.0, 100.0);
    }

    @Test
    void withoutAutoOffsetTheZeroIsTheStartOffsetOrZero() {
        final List<Conversation> trace = rows(20, 70);
        assertThat(gaps(new ScheduledArrivals(trace, new PhaseConfig.Schedule(false, 10L, null), 20L), 2))
                .containsExactly(10.0, 50.0);
        assertThat(gaps(new ScheduledArrivals(trace, new PhaseConfig.Schedule(false, null, null), 20L), 2))
                .containsExactly(20.0, 50.0);
    }
}
