package io.aiperf.engine.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

class BisectionPlannerTest {
    /** Runs the planner against a monotone truth, returns it when done. */
    private static BisectionPlanner search(final int min, final int max, final int probes, final IntPredicate meets) {
        final BisectionPlanner planner = new BisectionPlanner(min, max, probes);
        for (OptionalInt next = planner.next(); next.isPresent(); next = planner.next()) {
            planner.tell(next.getAsInt(), meets.test(next.getAsInt()));
        }
        return planner;
    }

    @Test
    void findsEveryBoundaryExactlyWithinLogProbes() {
        for (int boundary = 1; boundary <= 64; boundary++) {
            final int b = boundary;
            final BisectionPlanner p = search(1, 64, 10, c -> c <= b);
            assertThat(p.capacity()).as("boundary %d", b).hasValue(b);
            assertThat(p.converged()).isTrue();
            assertThat(p.path().size()).as("probes for boundary %d", b).isLessThanOrEqualTo(2 + 6);
            assertThat(p.lowestMissed()).isEqualTo(b == 64 ? OptionalInt.empty() : OptionalInt.of(b + 1));
        }
    }

    @Test
    void theCapacityOfEightInOneToSixteenTakesSixProbes() {
        final BisectionPlanner p = search(1, 16, 8, c -> c <= 8);
        assertThat(p.path()).containsExactly(1, 16, 8, 12, 10, 9);
        assertThat(p.capacity()).hasValue(8);
    }

    @Test
    void nothingMetWhenTheLowerBoundMisses() {
        final BisectionPlanner p = search(2, 16, 8, c -> false);
        assertThat(p.path()).containsExactly(2);
        assertThat(p.capacity()).isEmpty();
        assertThat(p.converged()).isTrue();
    }

    @Test
    void aSpentBudgetKeepsTheBestKnownValueUnconverged() {
        final BisectionPlanner p = search(1, 1000, 3, c -> c <= 700);
        assertThat(p.path()).containsExactly(1, 1000, 500);
        assertThat(p.capacity()).hasValue(500);
        assertThat(p.converged()).isFalse();
    }

    @Test
    void rejectsAnEmptyRangeOrTooFewProbes() {
        assertThatThrownBy(() -> new BisectionPlanner(0, 4, 8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BisectionPlanner(5, 4, 8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BisectionPlanner(1, 4, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
