package io.aiperf.engine.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class TierPlannerTest {
    /** Probes against boundaries: tier i is met up to {@code boundaries[i]}; returns the values probed. */
    private static List<Integer> run(final TierPlanner p, final int... boundaries) {
        final List<Integer> probed = new ArrayList<>();
        for (OptionalInt v = p.next(); v.isPresent(); v = p.next()) {
            final int value = v.getAsInt();
            assertThat(probed).as("a value is probed once for all tiers").doesNotContain(value);
            probed.add(value);
            final List<Boolean> met = new ArrayList<>();
            for (final int b : boundaries) {
                met.add(value <= b);
            }
            p.tell(value, met);
        }
        return probed;
    }

    @Test
    void eachTierFindsItsOwnBoundaryWithSharedProbes() {
        final TierPlanner p = new TierPlanner(BisectionPlanner.NAME, 1, 16, 20, 2);
        final List<Integer> probed = run(p, 5, 11);
        assertThat(p.tiers().get(0).capacity()).hasValue(5);
        assertThat(p.tiers().get(0).lowestMissed()).hasValue(6);
        assertThat(p.tiers().get(1).capacity()).hasValue(11);
        assertThat(p.capacity()).as("the most lenient tier's").hasValue(11);
        assertThat(p.lowestMissed()).hasValue(12);
        assertThat(p.converged()).isTrue();
        // two separate bisections of 1..16 probe 1 and 16 twice; shared, each is probed once
        assertThat(probed).startsWith(1, 16);
    }

    @Test
    void theBudgetOfPointsIsShared() {
        final TierPlanner p = new TierPlanner(BisectionPlanner.NAME, 1, 64, 4, 3);
        assertThat(run(p, 3, 20, 50)).hasSize(4);
        assertThat(p.converged()).isFalse();
    }

    @Test
    void aGridIsProbedOnceForEveryTier() {
        final TierPlanner p = new TierPlanner(GridPlanner.NAME, 1, 5, 5, 2);
        assertThat(run(p, 2, 4)).containsExactly(1, 2, 3, 4, 5);
        assertThat(p.tiers().get(0).capacity()).hasValue(2);
        assertThat(p.tiers().get(1).capacity()).hasValue(4);
    }

    @Test
    void noTierMetMeansNoCapacity() {
        final TierPlanner p = new TierPlanner(BisectionPlanner.NAME, 2, 8, 8, 2);
        assertThat(run(p, 0, 1)).containsExactly(2);
        assertThat(p.capacity()).isEmpty();
    }
}
