package io.aiperf.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The whole run's time left: the pace of the cells done so far, times the cells left. */
class RunEtaTest {
    private final AtomicLong now = new AtomicLong(1_000);
    private final RunEta eta = new RunEta(now::get);

    private void advanceSeconds(final long s) {
        now.addAndGet(TimeUnit.SECONDS.toNanos(s));
    }

    @Test
    void noEstimateBeforeTheFirstCellIsDone() {
        advanceSeconds(5);
        assertThat(eta.before(0, 8)).isEmpty();
        assertThat(eta.upTo(0, 6)).isEmpty();
    }

    @Test
    void thePaceOfTheCellsDoneTimesTheCellsLeft() {
        advanceSeconds(20); // two cells in 20 s: 10 s a cell
        assertThat(eta.before(2, 3)).isEqualTo(", run ETA 30s");
        advanceSeconds(10); // three in 30 s, thirteen left
        assertThat(eta.before(3, 13)).isEqualTo(", run ETA 2m10s");
        assertThat(eta.upTo(3, 13)).isEqualTo(", run ETA up to 2m10s");
    }

    @Test
    void nothingLeftSaysNothing() {
        advanceSeconds(20);
        assertThat(eta.before(2, 0)).isEmpty();
    }
}
